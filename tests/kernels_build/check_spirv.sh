#!/usr/bin/env bash
# check_spirv.sh SPIRV_VAL SPIRV_DIS SPIRV_FILE KERNEL_NAME...
# spirv-val accepts the module, its OpEntryPoints are exactly the kernel names, and each AG_KERNEL
# kernel ends with the Workgroup pointer parameter that carries dynamic shared memory, while
# CUDA-syntax kernels (mangled names, _Z..., and the extern "C" ones ANYGPU_EXTERN_C_CUDA_KERNELS
# names, space-separated) take none: their extern __shared__ arrays are sized in the module
# (docs/kernel-dialect.md).
set -euo pipefail
. "$(dirname "$0")/check_common.sh"
spirv_val=$1 spirv_dis=$2 spirv=$3
shift 3
require_tool "spirv-val" "$spirv_val"
require_tool "spirv-dis" "$spirv_dis"

"$spirv_val" "$spirv" || fail "spirv-val rejects $spirv"
"$spirv_dis" --raw-id "$spirv" >"$scratch/text" || fail "spirv-dis cannot read $spirv"
sed -n 's/^ *OpEntryPoint Kernel %[0-9]* "\([^"]*\)".*/\1/p' "$scratch/text" >"$scratch/names"
same_names "SPIR-V $(sed -n 's/^; Version: //p' "$scratch/text")" "$scratch/names" "$@"

awk -v extern_c="${ANYGPU_EXTERN_C_CUDA_KERNELS:-}" '
     BEGIN { n = split(extern_c, names, " "); for (i = 1; i <= n; ++i) c_kernel["\"" names[i] "\""] = 1 }
     $2 == "=" && $3 == "OpTypePointer" && $4 == "Workgroup" { workgroup[$1] = 1 }
     $2 == "=" && $3 == "OpTypeFunction" { last_parameter[$1] = $NF }
     $2 == "=" && $3 == "OpFunction" { type[$1] = $NF }
     $1 == "OpEntryPoint" { entry[$3] = $4 }
     END {
       for (id in entry) {
         cuda = entry[id] ~ /^"_Z/ || (entry[id] in c_kernel)
         if (!cuda && !workgroup[last_parameter[type[id]]]) {
           print "no trailing Workgroup pointer: " entry[id]
           bad = 1
         }
         if (cuda && workgroup[last_parameter[type[id]]]) {
           print "a CUDA-syntax kernel with a trailing Workgroup pointer: " entry[id]
           bad = 1
         }
       }
       exit bad
     }' "$scratch/text" || fail "a kernel's dynamic shared-memory parameter is not as its form wants"
