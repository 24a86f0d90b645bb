#!/usr/bin/env bash
# Checks what anygpu's binaries expose and depend on:
#  - libanygpu.so has a SONAME and exports only ag* symbols;
#  - no given binary links a vendor GPU library (anygpu dlopens them at run time).
# Usage: check_library_boundary.sh LIBANYGPU_SO [OTHER_BINARY...]
set -u
library=$1
shift
status=0
vendor_libraries='libcuda|libcudart|libamdhip64|libhsa|libze_loader|libOpenCL'

soname=$(readelf -d "$library" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ -z "$soname" ]; then
  echo "FAIL: $library has no SONAME"
  status=1
else
  echo "ok: SONAME $soname"
fi

exported=$(nm -D --defined-only "$library" | awk '{print $NF}')
count=$(printf '%s\n' "$exported" | grep -c .)
foreign=$(printf '%s\n' "$exported" | grep -v '^ag' || true)
if [ -n "$foreign" ]; then
  echo "FAIL: $library exports symbols outside the C ABI:"
  printf '  %s\n' $foreign
  status=1
elif [ "$count" -lt 40 ]; then
  echo "FAIL: $library exports only $count symbols; the C ABI has more"
  status=1
else
  echo "ok: $count exported symbols, all ag*"
fi

for binary in "$library" "$@"; do
  needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  if printf '%s\n' "$needed" | grep -Eq "^($vendor_libraries)"; then
    echo "FAIL: $binary links a vendor library:"
    printf '%s\n' "$needed" | grep -E "^($vendor_libraries)"
    status=1
  else
    echo "ok: $(basename "$binary") links no vendor library (needs: $(echo $needed))"
  fi
done
exit $status
