#!/usr/bin/env bash
# The barrier pass makes atomics on a block's shared memory plain read-modify-writes (nothing else
# can see them) and leaves every other atomic alone. Checked in the x86-64 code of the test image:
#   - shared_histogram's work-item entries (agk_wi_block_shared_histogram.*): no lock, no xchg;
#   - shared_atomic_kinds' (every CUDA atomic, on shared memory only): none either;
#   - its fiber entries, which the pass does not touch: locked atomics;
#   - histogram's work-item entries (global-memory atomics): locked atomics.
# Usage: check_shared_atomics.sh OBJDUMP HOST_CODE_OBJECT
set -u
objdump=$1
image=$2
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: the check reads x86-64 code ($(uname -m) here)"; exit 77; }
counts=$("$objdump" -d --no-show-raw-insn "$image" | awk '
  /^[0-9a-f]+ <[^>]*>:$/ { name = $2; seen[name] = 1 }
  /\t(lock|xchg)/ && !/\txchg +%ax,%ax/ { locked[name]++ }  # xchg %ax,%ax: a 2-byte nop
  END { for (n in seen) print n, locked[n] + 0 }') || { echo "FAIL: $objdump $image"; exit 1; }
status=0
check() {  # <description> <function-name regex> <want: zero|some>
  local lines
  lines=$(grep -E "^<$2>:" <<< "$counts")
  [ -n "$lines" ] || { echo "FAIL: no function matching $2 in $image"; status=1; return; }
  while read -r name n; do
    if { [ "$3" = zero ] && [ "$n" -ne 0 ]; } || { [ "$3" = some ] && [ "$n" -eq 0 ]; }; then
      echo "FAIL: $1: $name has $n locked instructions"
      status=1
    else
      echo "ok: $1: $name has $n locked instructions"
    fi
  done <<< "$lines"
}
check "shared atomics made plain" 'agk_wi_block_shared_histogram\.[a-z0-9]+\.[0-9]+' zero
check "every kind of shared atomic made plain" 'agk_wi_block_shared_atomic_kinds\.[a-z0-9]+\.[0-9]+' zero
check "fiber entries keep their atomics" '.*agk_kernel_shared_histogram3run.*' some
check "fiber entries keep every kind" '.*agk_kernel_shared_atomic_kinds3run.*' some
check "global atomics stay atomic" 'agk_wi_block_histogram\.[a-z0-9]+\.[0-9]+' some
exit $status
