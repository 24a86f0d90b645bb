# anygpu_add_kernels(TARGET <target> NAME <image> SOURCES <kernel sources>...
#                    [PTX_ARCHS <sm_XY>...] [AMDGPU_TARGETS <target id>...]
#                    [TARGETS host [ptx] [amdgpu] [spirv]] [HOST_ONLY] [FAST_MATH]
#                    [FLAGS <options>...])
#
# Compiles kernel sources for every target: CUDA sources (.cu, or C++ including anygpu/cuda.h),
# whose kernels the build finds and registers (needs clang++-19), and sources written with
# anygpu/kernel.h's AG_KERNEL; packs the code objects
# into one bundle with anygpu-pack and embeds it in <target>, which then declares it with
# `#include "anygpu_image_<image>.h"`:
#     extern const unsigned char anygpu_image_<image>[];
#     extern const size_t anygpu_image_<image>_size;
# and loads it with agModuleLoadData(device, anygpu_image_<image>, anygpu_image_<image>_size, ...).
#
# Targets, each from the C++ sources (C sources, AG_KERNEL_C, are host-only):
#   host     a shared object for this machine (the CPU backend), built by the project's compiler
#            with its flags; always built. Also left as ${CMAKE_BINARY_DIR}/kernels/<image>.host.so.
#            With the barrier pass (ANYGPU_CPU_BARRIER_PASS: anygpu's own build's plugin, or the
#            one an installed package carries), its C++ sources are built by clang++-19 with the
#            pass plugin instead (docs/cpu-barrier-pass.md). Configure says which way each image
#            is built, and why.
#   PTX      one per sm_ level (PTX_ARCHS, default ANYGPU_PTX_ARCHS), clang-19 in CUDA mode,
#            with CUDA's libdevice (ANYGPU_LIBDEVICE) linked in for math.
#   cubin    from that PTX with ptxas, for ANYGPU_CUBIN_ARCHS, only where a CUDA toolkit is found.
#   AMD      one code object per target id (AMDGPU_TARGETS, default ANYGPU_AMDGPU_TARGETS: gfx90a,
#            or with features, gfx90a:xnack-), clang-19 in HIP mode and lld-19, with ROCm's
#            ocml (ANYGPU_OCML, Debian's rocm-device-libs) linked in for math.
#   SPIR-V   clang-15 as C++ for OpenCL (AG_KERNEL sources) or in HIP mode for spirv64 (.cu
#            sources), llvm-link-15, llvm-as-15, llvm-spirv-15.
# A GPU target whose tools are missing is skipped with a warning at configure time; TARGETS leaves
# targets out of one image (HOST_ONLY: all GPU ones), ANYGPU_GPU_KERNELS=OFF out of every image.
# GPU code never sees CMAKE_<LANG>_FLAGS (sanitizers, ...) but the warning options (-W...) of them
# and of the calling directory's compile options; FLAGS reach every compile of the image.
# FAST_MATH is nvcc's -use_fast_math for the math functions (expf as __expf & co, docs/math.md). An
# unroll hint the optimizer cannot follow (#pragma unroll 8 on a loop of unknown count) is no
# warning, as in nvcc.
# Files: ${CMAKE_BINARY_DIR}/kernels/<image>.{sm_XY.ptx,sm_XY.cubin,<gfx>.co,spv,bundle}; their
# paths are properties of the target anygpu_kernels_<image> (ANYGPU_PTX_FILES, ANYGPU_CUBIN_FILES,
# ANYGPU_AMDGPU_FILES as <arch>=<path> lists; ANYGPU_SPIRV_FILE, ANYGPU_HOST_FILE,
# ANYGPU_IMAGE_FILE, ANYGPU_KERNEL_SOURCES, ANYGPU_PORTABLE_FILE).
# Portable source: an image that builds AMD code objects also carries its kernel sources
# (<image>.portable), from which agModuleLoadData builds a code object for an AMD target the image
# lacks (docs/runtime-compilation.md). docs/kernel-dialect.md has the compile commands.
include_guard(GLOBAL)

# The dialect's headers: next to this file in the source tree; once installed, where the
# installed package's anygpuInstallDirs.cmake (next to this file) says (<prefix>/include), so that
# an installed AnygpuKernels.cmake works through find_package(anygpu) or included by itself.
include("${CMAKE_CURRENT_LIST_DIR}/anygpuInstallDirs.cmake" OPTIONAL)
if(DEFINED _ANYGPU_INSTALLED_INCLUDE_DIR)
  set(_anygpu_default_include "${_ANYGPU_INSTALLED_INCLUDE_DIR}")
  set(_ANYGPU_INSTALLED_PACK "${_ANYGPU_INSTALLED_PACK}" CACHE INTERNAL "")
  set(_ANYGPU_INSTALLED_BARRIER_PASS "${_ANYGPU_INSTALLED_BARRIER_PASS}" CACHE INTERNAL "")
elseif(EXISTS "${CMAKE_CURRENT_LIST_DIR}/../include/anygpu/kernel.h")
  set(_anygpu_default_include "${CMAKE_CURRENT_LIST_DIR}/../include")
else()
  set(_anygpu_default_include "${CMAKE_CURRENT_LIST_DIR}/../../../include")
endif()
get_filename_component(_anygpu_default_include "${_anygpu_default_include}" ABSOLUTE)
set(ANYGPU_KERNEL_INCLUDE_DIR "${_anygpu_default_include}" CACHE PATH
  "Directory holding anygpu/kernel.h")

option(ANYGPU_GPU_KERNELS "anygpu_add_kernels builds GPU code objects (PTX, AMD, SPIR-V)" ON)
set(ANYGPU_PTX_ARCHS "sm_70;sm_80;sm_90" CACHE STRING "PTX levels anygpu_add_kernels builds")
set(ANYGPU_PTX_ISA "" CACHE STRING
  "PTX ISA version for every PTX level (e.g. 78); empty: the oldest each sm_ level allows")
set(ANYGPU_CUBIN_ARCHS "sm_80;sm_90" CACHE STRING
  "cubins built with ptxas from the PTX of the same level, where a CUDA toolkit is found")
set(ANYGPU_AMDGPU_TARGETS "gfx90a;gfx942;gfx1030;gfx1100;gfx1200" CACHE STRING
  "AMD target ids anygpu_add_kernels builds (features allowed: gfx90a:xnack-)")
set(ANYGPU_AMDGPU_CODE_OBJECT_VERSION "4" CACHE STRING
  "AMD code-object version (4: ROCm 4.x and later load it; 5: the default of ROCm 6)")
set(ANYGPU_SPIRV_VERSION "1.2" CACHE STRING "Highest SPIR-V version llvm-spirv may emit")
# extern __shared__ arrays have a fixed size where the target has no unsized shared memory: on
# the host the CPU device's shared memory per block (loaders/cpu/cpu_backend.cpp), in SPIR-V
# CUDA's default limit of dynamic shared memory (docs/kernel-dialect.md).
set(ANYGPU_CPU_DYNAMIC_SHARED_BYTES 65536)
set(ANYGPU_SPIRV_DYNAMIC_SHARED_BYTES 49152)
# The sub-group size of SPIR-V kernels that use warp functions (kSpirvWarpLanes in
# shim/kernel_build/spirv_subgroup_size.h).
set(ANYGPU_SPIRV_WARP_LANES 32)

find_program(ANYGPU_GPU_CLANG NAMES clang-19 DOC "clang for the nvptx64 and amdgcn kernels")
find_program(ANYGPU_SPIRV_CLANG NAMES clang-15 DOC "clang whose LLVM matches llvm-spirv")
find_program(ANYGPU_SPIRV_LINK NAMES llvm-link-15 DOC "llvm-link matching ANYGPU_SPIRV_CLANG")
find_program(ANYGPU_SPIRV_AS NAMES llvm-as-15 DOC "llvm-as matching ANYGPU_SPIRV_CLANG")
find_program(ANYGPU_LLVM_SPIRV NAMES llvm-spirv-15 DOC "LLVM IR to SPIR-V translator")
find_program(ANYGPU_HOST_CLANG NAMES clang++-19
  DOC "clang++ that builds host code objects with the barrier pass (ANYGPU_CPU_BARRIER_PASS)")
# The barrier pass makes kernels with barriers run as loops over their threads, not on fibers.
# Off by default under sanitizers: the pass's build of the kernels is not instrumented.
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
  set(_anygpu_barrier_pass_default OFF)
else()
  set(_anygpu_barrier_pass_default ON)
endif()
option(ANYGPU_CPU_BARRIER_PASS
  "Build host code objects with clang++-19 and the barrier pass (needs llvm-19-dev)"
  ${_anygpu_barrier_pass_default})
find_program(ANYGPU_PTXAS NAMES ptxas HINTS ENV CUDA_PATH PATHS /usr/local/cuda
  PATH_SUFFIXES bin DOC "CUDA toolkit's ptxas (optional: cubins)")
# The vendors' math libraries, linked into each code object at build time (docs/kernel-dialect.md,
# Math): CUDA's libdevice (a CUDA toolkit, or Debian's nvidia-cuda-toolkit) and ROCm's ocml
# (Debian's rocm-device-libs).
find_file(ANYGPU_LIBDEVICE NAMES libdevice.10.bc HINTS ENV CUDA_PATH
  PATHS /usr/local/cuda /usr/lib/nvidia-cuda-toolkit PATH_SUFFIXES nvvm/libdevice libdevice
  DOC "CUDA's libdevice.10.bc: the math library of PTX kernels")
find_file(ANYGPU_OCML NAMES ocml.bc HINTS ENV ROCM_PATH
  PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE} /usr/lib/x86_64-linux-gnu /opt/rocm
  PATH_SUFFIXES amdgcn/bitcode DOC "ROCm's ocml.bc: the math library of AMD kernels")

# Says once, at configure time, which GPU targets are built and why one is skipped; sets
# _ANYGPU_HAVE_PTX, _ANYGPU_HAVE_AMDGPU, _ANYGPU_HAVE_SPIRV.
function(_anygpu_check_kernel_tools)
  string(REPLACE ";" " " ptx_archs "${ANYGPU_PTX_ARCHS}")
  string(REPLACE ";" " " amdgpu_targets "${ANYGPU_AMDGPU_TARGETS}")
  set(PTX_what "PTX (${ptx_archs})")
  set(PTX_tools "with ${ANYGPU_GPU_CLANG}")
  set(AMDGPU_what "AMD code objects (${amdgpu_targets})")
  set(AMDGPU_tools "with ${ANYGPU_GPU_CLANG} and its ld.lld")
  set(SPIRV_what "SPIR-V")
  set(SPIRV_tools "with ${ANYGPU_SPIRV_CLANG}, llvm-link, llvm-as and ${ANYGPU_LLVM_SPIRV}")
  if(NOT EXISTS "${ANYGPU_GPU_CLANG}")
    set(PTX_missing "clang-19 not found (install clang-19 or set ANYGPU_GPU_CLANG)")
    set(AMDGPU_missing "${PTX_missing}")
  else()
    execute_process(COMMAND "${ANYGPU_GPU_CLANG}" -print-prog-name=ld.lld
      OUTPUT_VARIABLE lld OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${lld}" OR NOT EXISTS "${lld}")
      set(AMDGPU_missing "ld.lld for ${ANYGPU_GPU_CLANG} not found (install lld-19)")
    elseif(NOT EXISTS "${ANYGPU_OCML}")
      set(AMDGPU_missing "ROCm's ocml.bc, the math library AMD kernels link, not found (install "
        "rocm-device-libs or set ANYGPU_OCML)")
    endif()
    if(NOT EXISTS "${ANYGPU_LIBDEVICE}")
      set(PTX_missing "CUDA's libdevice.10.bc, the math library PTX kernels link, not found "
        "(install a CUDA toolkit or Debian's nvidia-cuda-toolkit, or set ANYGPU_LIBDEVICE)")
    endif()
  endif()
  set(PTX_tools "${PTX_tools} and ${ANYGPU_LIBDEVICE}")
  set(AMDGPU_tools "${AMDGPU_tools} and ${ANYGPU_OCML}")
  foreach(tool ANYGPU_LLVM_SPIRV=llvm-spirv-15 ANYGPU_SPIRV_AS=llvm-as-15
      ANYGPU_SPIRV_LINK=llvm-link-15 ANYGPU_SPIRV_CLANG=clang-15)
    string(REPLACE "=" ";" tool "${tool}")
    list(GET tool 0 variable)
    list(GET tool 1 program)
    if(NOT EXISTS "${${variable}}")
      set(SPIRV_missing "${program} not found (install it or set ${variable})")
    endif()
  endforeach()
  foreach(kind PTX AMDGPU SPIRV)
    if(NOT ANYGPU_GPU_KERNELS)
      set(${kind}_missing "ANYGPU_GPU_KERNELS is OFF")
    endif()
    if(${kind}_missing)
      message(WARNING "anygpu kernels: skipping ${${kind}_what}: ${${kind}_missing}")
      set(_ANYGPU_HAVE_${kind} OFF CACHE INTERNAL "")
    else()
      message(STATUS "anygpu kernels: building ${${kind}_what} ${${kind}_tools}")
      set(_ANYGPU_HAVE_${kind} ON CACHE INTERNAL "")
    endif()
  endforeach()
  if(EXISTS "${ANYGPU_PTXAS}" AND ANYGPU_CUBIN_ARCHS AND _ANYGPU_HAVE_PTX)
    string(REPLACE ";" " " cubin_archs "${ANYGPU_CUBIN_ARCHS}")
    message(STATUS "anygpu kernels: building cubins (${cubin_archs}) with ${ANYGPU_PTXAS}")
  else()
    message(STATUS "anygpu kernels: no cubins (optional: they need a CUDA toolkit's ptxas)")
  endif()
endfunction()
_anygpu_check_kernel_tools()

# The oldest PTX ISA each level allows, so that the oldest drivers for it take the PTX.
function(_anygpu_ptx_isa arch out)
  set(table sm_60=50 sm_61=50 sm_62=50 sm_70=60 sm_72=61 sm_75=63 sm_80=70 sm_86=71 sm_87=74
            sm_89=78 sm_90=78)
  if(ANYGPU_PTX_ISA)
    set(${out} "${ANYGPU_PTX_ISA}" PARENT_SCOPE)
    return()
  endif()
  foreach(entry ${table})
    if(entry MATCHES "^${arch}=(.*)$")
      set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "anygpu_add_kernels: no PTX ISA known for ${arch}; set ANYGPU_PTX_ISA")
endfunction()

# Compiles each source to LLVM bitcode in <dir>; <out> gets the bitcode files.
function(_anygpu_compile_bitcode out dir description)
  cmake_parse_arguments(PARSE_ARGV 3 ARG "" "" "COMMAND;SOURCES")
  set(bitcode "")
  set(index 0)
  foreach(source ${ARG_SOURCES})
    get_filename_component(stem "${source}" NAME_WE)
    set(output "${dir}/${index}_${stem}.bc")  # the index keeps equal file names apart
    add_custom_command(OUTPUT "${output}"
      COMMAND ${ARG_COMMAND} ${_ANYGPU_KERNEL_INCLUDES} ${_ANYGPU_GPU_FLAGS}
              -Wno-pass-failed
              -MD -MT "${output}" -MF "${output}.d" -emit-llvm -c "${source}" -o "${output}"
      DEPENDS "${source}" DEPFILE "${output}.d"
      COMMENT "anygpu kernels: ${description} ${stem}" VERBATIM)
    list(APPEND bitcode "${output}")
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} "${bitcode}" PARENT_SCOPE)
endfunction()

# PTX for one sm_ level: each source to bitcode, linked into one module, then to PTX.
function(_anygpu_add_ptx out name arch sources)
  _anygpu_ptx_isa(${arch} isa)
  set(dir "${CMAKE_BINARY_DIR}/kernels/${name}/${arch}")
  set(output "${CMAKE_BINARY_DIR}/kernels/${name}.${arch}.ptx")
  # AGK_PTX_ISA: the warp functions pick the instructions the PTX version has (warp_gpu.h).
  set(flags --cuda-gpu-arch=${arch} --cuda-feature=+ptx${isa} -DAGK_PTX_ISA=${isa} -O3)
  # FAST_MATH is nvcc's -use_fast_math here in full: float denormals flushed (.ftz instructions,
  # libdevice's __CUDA_FTZ forms), division as div.full (-prec-div=false); sqrtf as sqrt.approx
  # (-prec-sqrt=false) is kernel_gpu.h's.
  set(fast_codegen "")
  if("-DAGK_FAST_MATH=1" IN_LIST _ANYGPU_KERNEL_FLAGS)
    list(APPEND flags -fgpu-flush-denormals-to-zero)
    set(fast_codegen -mllvm -nvptx-prec-divf32=1)
  endif()
  _anygpu_compile_bitcode(bitcode "${dir}" "PTX ${arch}" SOURCES ${sources}
    COMMAND "${ANYGPU_GPU_CLANG}" -x cuda --cuda-device-only -nocudainc -nocudalib
            -Wno-unknown-cuda-version ${flags})
  list(POP_FRONT bitcode first)
  set(link_others "")
  foreach(file ${bitcode})
    list(APPEND link_others -Xclang -mlink-bitcode-file -Xclang "${file}")
  endforeach()
  add_custom_command(OUTPUT "${output}"
    COMMAND "${ANYGPU_GPU_CLANG}" --target=nvptx64-nvidia-cuda -march=${arch}
            --cuda-feature=+ptx${isa} -O3 ${fast_codegen} -S "${first}" ${link_others}
            -Xclang -mlink-builtin-bitcode -Xclang "${ANYGPU_LIBDEVICE}" -o "${output}"
    DEPENDS "${first}" ${bitcode} "${ANYGPU_LIBDEVICE}"
    COMMENT "anygpu kernels: ${name}.${arch}.ptx" VERBATIM)
  set(${out} "${output}" PARENT_SCOPE)
endfunction()

function(_anygpu_add_cubin out name arch ptx)
  set(output "${CMAKE_BINARY_DIR}/kernels/${name}.${arch}.cubin")
  add_custom_command(OUTPUT "${output}"
    COMMAND "${ANYGPU_PTXAS}" -arch=${arch} "${ptx}" -o "${output}"
    DEPENDS "${ptx}" COMMENT "anygpu kernels: ${name}.${arch}.cubin" VERBATIM)
  set(${out} "${output}" PARENT_SCOPE)
endfunction()

# An AMD code object for one target id: each source to bitcode, linked by lld (LTO).
function(_anygpu_add_amdgpu out name target_id sources)
  string(REPLACE ":" "_" file_id "${target_id}")
  set(dir "${CMAKE_BINARY_DIR}/kernels/${name}/${file_id}")
  set(output "${CMAKE_BINARY_DIR}/kernels/${name}.${file_id}.co")
  set(version -mcode-object-version=${ANYGPU_AMDGPU_CODE_OBJECT_VERSION})
  if(target_id MATCHES "^gfx[0-9-]+-generic")
    # A generic target (gfx11-generic: every RDNA 3 processor) needs code object v6, which clang
    # 19 calls experimental with a warning no option silences: -Werror would make it an error.
    set(version -mcode-object-version=6)
    list(FILTER _ANYGPU_GPU_FLAGS EXCLUDE REGEX "^-Werror$")
  endif()
  # FAST_MATH: float denormals flushed and float division and sqrt to 2.5 ulp, as -use_fast_math
  # (hip_clang_compiler.cpp passes the same at run time).
  set(fast "")
  if("-DAGK_FAST_MATH=1" IN_LIST _ANYGPU_KERNEL_FLAGS)
    set(fast -fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt)
  endif()
  _anygpu_compile_bitcode(bitcode "${dir}" "AMD ${target_id}" SOURCES ${sources}
    COMMAND "${ANYGPU_GPU_CLANG}" -x hip --cuda-device-only -nogpuinc -nogpulib
            --offload-arch=${target_id} ${version} -O3 ${fast}
            -Xclang -mlink-builtin-bitcode -Xclang "${ANYGPU_OCML}")
  add_custom_command(OUTPUT "${output}"
    COMMAND "${ANYGPU_GPU_CLANG}" --target=amdgcn-amd-amdhsa -mcpu=${target_id} -nogpulib ${version}
            -O3 -flto ${bitcode} -o "${output}"
    DEPENDS ${bitcode} COMMENT "anygpu kernels: ${name}.${file_id}.co" VERBATIM)
  set(${out} "${output}" PARENT_SCOPE)
endfunction()

# The portable source of an image: for an AMD target the image has no code object for,
# agModuleLoadData builds one from it at load time (docs/runtime-compilation.md, "Targets a bundle
# lacks"). Each kernel source as clang reads it for AMD with the includes inlined
# (-frewrite-includes); anygpu-pack portable-source puts anygpu's and the system's headers back as
# #include lines and restores the conditions clang evaluated; FLAGS' defines and FAST_MATH go
# with it.
function(_anygpu_add_portable out name sources target_id)
  set(dir "${CMAKE_BINARY_DIR}/kernels/${name}/portable")
  set(output "${CMAKE_BINARY_DIR}/kernels/${name}.portable")
  set(portable_args "")
  set(rewritten_files "")
  set(index 0)
  foreach(source ${sources})
    get_filename_component(file_name "${source}" NAME)
    string(REGEX REPLACE "[ =]" "_" file_name "${file_name}")  # a portable source's names have none
    set(rewritten "${dir}/${index}_${file_name}")
    set(prelude "")
    if(source MATCHES "\\.cu$")
      set(prelude -include anygpu/cuda.h)
    endif()
    add_custom_command(OUTPUT "${rewritten}"
      COMMAND "${ANYGPU_GPU_CLANG}" -x hip --cuda-device-only -nogpuinc -nogpulib
              --offload-arch=${target_id} ${prelude} ${_ANYGPU_KERNEL_INCLUDES} ${_ANYGPU_GPU_FLAGS}
              -E -frewrite-includes -MD -MT "${rewritten}" -MF "${rewritten}.d" "${source}"
              -o "${rewritten}"
      DEPENDS "${source}" DEPFILE "${rewritten}.d"
      COMMENT "anygpu kernels: ${name}'s portable ${file_name}" VERBATIM)
    list(APPEND portable_args --source "${file_name}=${rewritten}")
    list(APPEND rewritten_files "${rewritten}")
    math(EXPR index "${index} + 1")
  endforeach()
  foreach(flag ${_ANYGPU_KERNEL_FLAGS})
    if(flag STREQUAL "-DAGK_FAST_MATH=1")
      list(APPEND portable_args --fast-math)
    elseif(flag MATCHES "^-D(.+)$")
      list(APPEND portable_args --define "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  _anygpu_find_packer(packer)
  add_custom_command(OUTPUT "${output}"
    COMMAND ${packer} portable-source --library-dir "${ANYGPU_KERNEL_INCLUDE_DIR}"
            --library-dir "${ANYGPU_KERNEL_INCLUDE_DIR}/anygpu/cuda_compat" ${portable_args}
            -o "${output}"
    DEPENDS ${rewritten_files} ${packer} COMMENT "anygpu kernels: ${name}.portable" VERBATIM)
  set(${out} "${output}" PARENT_SCOPE)
endfunction()

# SPIR-V: AG_KERNEL sources as C++ for OpenCL, CUDA-syntax sources (their registration files) in
# HIP mode for spirv64, to spir64 bitcode, linked, translated. Before translation, the loop
# metadata (#pragma unroll, C++'s forward-progress guarantee) is dropped: llvm-spirv 15 turns it
# into loop merges that spirv-val rejects (blocks before their dominators, merge = continue);
# `freeze`, which llvm-spirv 15 cannot translate (LLVM makes it for a division by a value it
# cannot prove non-poison, such as warpSize), becomes a no-op bitcast (SPIR-V has no poison), a
# no-op `and` for a bool, which SPIR-V cannot bitcast;
# HIP mode's llvm.compiler.used, whose casts to the private address space SPIR-V forbids, is
# dropped; the modules' OpenCL versions (HIP mode's is 0.0) are made one, as llvm-spirv requires;
# the extern __shared__ arrays get a size (anygpu-pack shared-memory --spirv); and the blocks of
# every function are put in dominance order (anygpu-pack block-order), which SPIR-V requires and
# LLVM's block order need not give (a rotated loop's exit block may come before the loop's body);
# the kernels that use warp functions require sub-groups of CUDA's 32 lanes (anygpu-pack
# subgroup-size), which the Level Zero backend checks against the device when it loads the image.
# No VectorCombine: from `blockIdx.x * blockDim.x + threadIdx.x` and its y twin it makes one
# `<6 x i32>` multiply of the builtin variables' lanes, which llvm-spirv 15 cannot translate.
function(_anygpu_add_spirv out name opencl_sources hip_sources)
  set(dir "${CMAKE_BINARY_DIR}/kernels/${name}/spirv")
  set(linked "${dir}/${name}.ll")
  set(sized "${dir}/${name}.sized.ll")
  set(ordered "${dir}/${name}.ordered.ll")
  set(pinned "${dir}/${name}.pinned.ll")
  set(output "${CMAKE_BINARY_DIR}/kernels/${name}.spv")
  _anygpu_compile_bitcode(opencl_bitcode "${dir}" "SPIR-V" SOURCES ${opencl_sources}
    COMMAND "${ANYGPU_SPIRV_CLANG}" -x clcpp -cl-std=clc++2021 -target spir64 -ffreestanding -O2
            -mllvm -disable-vector-combine)
  _anygpu_compile_bitcode(hip_bitcode "${dir}/hip" "SPIR-V" SOURCES ${hip_sources}
    COMMAND "${ANYGPU_SPIRV_CLANG}" -std=c++17 -x hip --offload=spirv64 --cuda-device-only
            -nogpulib -nogpuinc -Wno-unknown-cuda-version -O2 -mllvm -disable-vector-combine)
  set(bitcode ${opencl_bitcode} ${hip_bitcode})
  _anygpu_find_packer(packer)
  add_custom_command(OUTPUT "${output}"
    COMMAND "${ANYGPU_SPIRV_LINK}" -S ${bitcode} -o "${linked}"
    COMMAND sed -E -i -e "s/, !llvm\\.loop ![0-9]+//g" -e "/^@llvm\\.compiler\\.used = /d"
            -e "s/= freeze i1 (.+)$/= and i1 \\1, true/"
            -e "s/= freeze ([a-z0-9]+) (.+)$/= bitcast \\1 \\2 to \\1/"
            -e "s/^(!opencl\\.ocl\\.version = !\\{![0-9]+).*/\\1}/" "${linked}"
    COMMAND ${packer} shared-memory --spirv ${ANYGPU_SPIRV_DYNAMIC_SHARED_BYTES} -o "${sized}"
            "${linked}"
    COMMAND ${packer} block-order -o "${ordered}" "${sized}"
    COMMAND ${packer} subgroup-size ${ANYGPU_SPIRV_WARP_LANES} -o "${pinned}" "${ordered}"
    COMMAND "${ANYGPU_SPIRV_AS}" "${pinned}" -o "${dir}/${name}.bc"
    COMMAND "${ANYGPU_LLVM_SPIRV}" --spirv-max-version=${ANYGPU_SPIRV_VERSION}
            --spirv-ext=+SPV_INTEL_subgroups "${dir}/${name}.bc" -o "${output}"
    DEPENDS ${bitcode} ${packer} COMMENT "anygpu kernels: ${name}.spv" VERBATIM)
  set(${out} "${output}" PARENT_SCOPE)
endfunction()

# Quotes each argument for sh.
function(_anygpu_shell_words out)
  set(words "")
  foreach(argument ${ARGN})
    string(REPLACE "'" "'\\''" argument "${argument}")
    string(APPEND words " '${argument}'")
  endforeach()
  set(${out} "${words}" PARENT_SCOPE)
endfunction()

# The discovery step of one source: the host compile that finds its kernels; when that fails, the
# source's errors on every GPU target of the image too (front ends only), so that one build says
# what each target reports, not the host's errors alone.
function(_anygpu_write_discovery_script out script source discover prelude_flags)
  set(checks "")
  set(common -fsyntax-only -w ${prelude_flags} ${_ANYGPU_KERNEL_INCLUDES} ${_ANYGPU_GPU_FLAGS})
  if(want_ptx)
    list(GET ARG_PTX_ARCHS 0 arch)
    _anygpu_shell_words(words "${ANYGPU_GPU_CLANG}" -x cuda --cuda-device-only -nocudainc
      -nocudalib -Wno-unknown-cuda-version --cuda-gpu-arch=${arch} ${common} "${source}")
    string(APPEND checks "check 'PTX (${arch})'${words}\n")
  endif()
  if(want_amdgpu)
    list(GET ARG_AMDGPU_TARGETS 0 target_id)
    _anygpu_shell_words(words "${ANYGPU_GPU_CLANG}" -x hip --cuda-device-only -nogpuinc -nogpulib
      --offload-arch=${target_id} ${common} "${source}")
    string(APPEND checks "check 'AMD (${target_id})'${words}\n")
  endif()
  if(want_spirv)
    if(source MATCHES "\\.cu$")
      set(mode -std=c++17 -x hip --offload=spirv64 --cuda-device-only -nogpulib -nogpuinc
        -Wno-unknown-cuda-version)
    else()
      set(mode -x clcpp -cl-std=clc++2021 -target spir64 -ffreestanding)
    endif()
    _anygpu_shell_words(words "${ANYGPU_SPIRV_CLANG}" ${mode} ${common} "${source}")
    string(APPEND checks "check SPIR-V${words}\n")
  endif()
  _anygpu_shell_words(discover_words ${discover})
  string(CONCAT text "#!/bin/sh\n"
    "# Generated by anygpu_add_kernels: finds the kernels of ${source} (the host build); when\n"
    "# the source does not build there, also shows what each GPU target of the image says.\n"
    "${discover_words} && exit 0\n"
    "check() {\n"
    "  what=$1\n"
    "  shift\n"
    "  \"$@\" >/dev/null 2>&1 && echo \"anygpu kernels: for $what it builds\" >&2 && return\n"
    "  echo \"anygpu kernels: for $what:\" >&2\n"
    "  \"$@\" >&2\n"
    "}\n"
    "echo 'anygpu kernels: ${source} does not build for the host (above); the GPU targets:' >&2\n"
    "${checks}"
    "exit 1\n")
  file(CONFIGURE OUTPUT "${script}" CONTENT "${text}" @ONLY)
  set(${out} "${script}" PARENT_SCOPE)
endfunction()

# CUDA-syntax kernels (.cu sources, or C++ sources that include anygpu/cuda.h) are plain functions,
# so the build finds them: it compiles each C++ source once for the host with AGK_DISCOVER
# (clang++-19), and anygpu-pack kernels writes a file that includes the source and registers each
# __global__ function it found (anygpu/detail/cuda_syntax.h). Every target compiles that file in
# place of the source. <out> gets the sources to compile, <discovered> the discovery objects.
function(_anygpu_register_kernels out discovered name sources)
  _anygpu_find_packer(packer)
  set(registered "")
  set(objects "")
  set(index 0)
  foreach(source ${sources})
    if(source MATCHES "\\.c$")
      list(APPEND registered "${source}")
      continue()
    endif()
    if(NOT EXISTS "${ANYGPU_HOST_CLANG}" OR NOT packer)
      if(source MATCHES "\\.cu$")
        message(FATAL_ERROR "anygpu_add_kernels: ${source} is CUDA source, whose kernels the "
          "build finds with clang++-19 (install clang-19 or set ANYGPU_HOST_CLANG) and "
          "anygpu-pack")
      endif()
      list(APPEND registered "${source}")  # AG_KERNEL sources need neither
      continue()
    endif()
    get_filename_component(stem "${source}" NAME_WE)
    set(dir "${CMAKE_BINARY_DIR}/kernels/${name}/registry")
    set(object "${dir}/${index}_${stem}.discover.o")
    set(generated "${dir}/${index}_${stem}.kernels.cpp")
    set(prelude_flags "")
    set(prelude_option "")
    if(source MATCHES "\\.cu$")
      set(prelude_flags -include anygpu/cuda.h)
      set(prelude_option --prelude anygpu/cuda.h)
    endif()
    set(discover "${ANYGPU_HOST_CLANG}" -std=c++17 -x c++ -O0 -fPIC -w -DAGK_DISCOVER
      ${prelude_flags} ${_ANYGPU_KERNEL_INCLUDES} ${_ANYGPU_KERNEL_FLAGS}
      -MD -MT "${object}" -MF "${object}.d" -c "${source}" -o "${object}")
    _anygpu_write_discovery_script(script "${dir}/${index}_${stem}.discover.sh" "${source}"
      "${discover}" "${prelude_flags}")
    add_custom_command(OUTPUT "${object}" COMMAND sh "${script}"
      DEPENDS "${source}" "${script}" DEPFILE "${object}.d"
      COMMENT "anygpu kernels: finding the kernels of ${stem}" VERBATIM)
    add_custom_command(OUTPUT "${generated}"
      COMMAND ${packer} kernels --source "${source}" ${prelude_option} -o "${generated}"
              "${object}"
      DEPENDS "${object}" ${packer} COMMENT "anygpu kernels: registering ${stem}'s kernels"
      VERBATIM)
    list(APPEND registered "${generated}")
    list(APPEND objects "${object}")
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} "${registered}" PARENT_SCOPE)
  set(${discovered} "${objects}" PARENT_SCOPE)
endfunction()

# The barrier pass plugin host code objects are built with: this build's (the target
# anygpu_barrier_pass), else an installed package's; <out> is empty and <reason> says why when
# there is none.
function(_anygpu_barrier_pass_plugin out reason)
  set(${out} "" PARENT_SCOPE)
  if(NOT ANYGPU_CPU_BARRIER_PASS)
    set(why "ANYGPU_CPU_BARRIER_PASS is OFF")
    if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
      string(APPEND why " (its default under sanitizers: the pass's build is not instrumented)")
    endif()
    set(${reason} "${why}" PARENT_SCOPE)
  elseif(TARGET anygpu_barrier_pass)
    get_target_property(plugin anygpu_barrier_pass ANYGPU_PLUGIN_FILE)
    set(${out} "${plugin}" PARENT_SCOPE)
  elseif(NOT _ANYGPU_INSTALLED_INCLUDE_DIR)
    set(${reason} "anygpu's build has no barrier pass (its configure output says why)"
      PARENT_SCOPE)
  elseif(NOT _ANYGPU_INSTALLED_BARRIER_PASS)
    string(CONCAT why "this anygpu was installed without the barrier pass plugin (built "
      "without llvm-19-dev, or with sanitizers)")
    set(${reason} "${why}" PARENT_SCOPE)
  elseif(NOT EXISTS "${_ANYGPU_INSTALLED_BARRIER_PASS}")
    set(${reason} "the installed plugin ${_ANYGPU_INSTALLED_BARRIER_PASS} is missing" PARENT_SCOPE)
  elseif(NOT EXISTS "${ANYGPU_HOST_CLANG}")
    string(CONCAT why "clang++-19, which loads the plugin, was not found (install clang-19 or "
      "set ANYGPU_HOST_CLANG)")
    set(${reason} "${why}" PARENT_SCOPE)
  else()
    set(${out} "${_ANYGPU_INSTALLED_BARRIER_PASS}" PARENT_SCOPE)
  endif()
endfunction()

# The flags of host sources built with the barrier pass (the plugin, includes and the image's own
# flags come after them). -force-ordered-reductions lets the loop vectorizer widen a loop that sums
# floats in order (a softmax row's `sum += expf(...)`) and add the lanes one after another, as the
# scalar loop does: the same bits, and every other operation of the loop vectorised.
set(ANYGPU_HOST_PASS_FLAGS -std=c++17 -O3 -fPIC -fvisibility=hidden -fno-exceptions
  -ffp-contract=off -fno-math-errno -Wno-pass-failed -DANYGPU_WORKITEM_LOOPS
  -mllvm -force-ordered-reductions)

# The C++ host sources as objects built by clang++-19 with the barrier pass; C sources as they are.
function(_anygpu_host_pass_objects out name sources plugin)
  set(plugin_target "")
  if(TARGET anygpu_barrier_pass)
    set(plugin_target anygpu_barrier_pass)
  endif()
  set(objects "")
  set(index 0)
  foreach(source ${sources})
    if(source MATCHES "\\.(c|S)$")
      list(APPEND objects "${source}")
      continue()
    endif()
    get_filename_component(stem "${source}" NAME_WE)
    set(object "${CMAKE_BINARY_DIR}/kernels/${name}/host/${index}_${stem}.o")
    add_custom_command(OUTPUT "${object}"
      COMMAND "${ANYGPU_HOST_CLANG}" ${ANYGPU_HOST_PASS_FLAGS} "-fpass-plugin=${plugin}"
              ${_ANYGPU_KERNEL_INCLUDES} ${_ANYGPU_KERNEL_FLAGS}
              -MD -MT "${object}" -MF "${object}.d" -c "${source}" -o "${object}"
      DEPENDS "${source}" ${plugin_target} "${plugin}" DEPFILE "${object}.d"
      COMMENT "anygpu kernels: host ${stem} with the barrier pass" VERBATIM)
    list(APPEND objects "${object}")
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out} "${objects}" PARENT_SCOPE)
endfunction()

# The host code object: a module library built like the rest of the project, or from the barrier
# pass's objects.
function(_anygpu_add_host out name sources)
  set(host_target anygpu_kernels_${name}_host)
  _anygpu_barrier_pass_plugin(plugin reason)
  if(plugin)
    _anygpu_host_pass_objects(sources "${name}" "${sources}" "${plugin}")
    message(STATUS "anygpu kernels: ${name}: host code object with the barrier pass (${plugin})")
  else()
    message(STATUS "anygpu kernels: ${name}: host code object without the barrier pass, kernels "
      "with barriers run on fibers: ${reason}")
  endif()
  add_library(${host_target} MODULE ${sources})
  set_target_properties(${host_target} PROPERTIES LINKER_LANGUAGE CXX)
  target_include_directories(${host_target} PRIVATE ${ANYGPU_KERNEL_INCLUDE_DIR}
    ${ANYGPU_KERNEL_INCLUDE_DIR}/anygpu/cuda_compat ${CMAKE_CURRENT_SOURCE_DIR})
  # CUDA code writes #pragma unroll, which clang takes and GCC does not know (GCC 12 cannot be
  # told so from a header): on a GCC host build it is the hint it is, not a warning.
  target_compile_options(${host_target} PRIVATE ${_ANYGPU_KERNEL_FLAGS}
    $<$<COMPILE_LANG_AND_ID:CXX,GNU>:-Wno-unknown-pragmas>)
  target_link_libraries(${host_target} PRIVATE m)
  # libm functions whose glibc versions miss CUDA's bounds bind to math_host.h's own.
  target_link_options(${host_target} PRIVATE
    "LINKER:--wrap=cbrt,--wrap=exp10,--wrap=tanh,--wrap=j0,--wrap=j1,--wrap=y0,--wrap=y1")
  set_target_properties(${host_target} PROPERTIES
    PREFIX "" OUTPUT_NAME "${name}.host" SUFFIX ".so"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/kernels"
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden
    POSITION_INDEPENDENT_CODE ON)
  set(${out} "${CMAKE_BINARY_DIR}/kernels/${name}.host.so" PARENT_SCOPE)
endfunction()

# anygpu-pack: this build's target, an installed package's (the imported target of
# find_package(anygpu), or the file next to it when this file was included by itself), or one on
# the PATH.
function(_anygpu_find_packer out)
  if(TARGET anygpu-pack)
    set(${out} anygpu-pack PARENT_SCOPE)
  elseif(TARGET anygpu::anygpu-pack)
    set(${out} anygpu::anygpu-pack PARENT_SCOPE)
  elseif(_ANYGPU_INSTALLED_PACK AND EXISTS "${_ANYGPU_INSTALLED_PACK}")
    set(${out} "${_ANYGPU_INSTALLED_PACK}" PARENT_SCOPE)
  else()
    find_program(ANYGPU_PACK NAMES anygpu-pack
      HINTS "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../../bin" DOC "anygpu-pack (packs bundles)")
    set(${out} "${ANYGPU_PACK}" PARENT_SCOPE)
  endif()
endfunction()

# Builds every target of image <name> once, packs it, and writes the files that embed it.
function(_anygpu_build_image name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;PTX_ARCHS;AMDGPU_TARGETS;TARGETS")
  set(sources ${ARG_SOURCES})
  set(want_ptx OFF)
  set(want_amdgpu OFF)
  set(want_spirv OFF)
  foreach(kind ptx amdgpu spirv)
    string(TOUPPER ${kind} upper)
    if(_ANYGPU_HAVE_${upper} AND kind IN_LIST ARG_TARGETS)
      set(want_${kind} ON)
    endif()
  endforeach()
  _anygpu_register_kernels(compiled discovered "${name}" "${sources}")
  set(gpu_sources "")
  set(opencl_sources "")
  set(hip_sources "")
  foreach(source ${sources})
    if(source MATCHES "\\.c$")
      continue()
    endif()
    list(FIND sources "${source}" position)
    list(GET compiled ${position} registered)
    list(APPEND gpu_sources "${registered}")
    if(source MATCHES "\\.cu$")
      list(APPEND hip_sources "${registered}")
    else()
      list(APPEND opencl_sources "${source}")  # C++ for OpenCL takes no __global__ function
    endif()
  endforeach()
  set(host_sources ${compiled})
  if(discovered)
    _anygpu_find_packer(packer)
    set(storage "${CMAKE_BINARY_DIR}/kernels/${name}/registry/shared_memory.S")
    add_custom_command(OUTPUT "${storage}"
      COMMAND ${packer} shared-memory --host ${ANYGPU_CPU_DYNAMIC_SHARED_BYTES} -o "${storage}"
              ${discovered}
      DEPENDS ${discovered} ${packer} COMMENT "anygpu kernels: ${name}'s extern __shared__ arrays"
      VERBATIM)
    list(APPEND host_sources "${storage}")
  endif()
  _anygpu_add_host(host "${name}" "${host_sources}")
  set(pack_args --host "${host}")
  set(ptx_files "")
  set(cubin_files "")
  set(amdgpu_files "")
  set(spirv "")
  set(portable "")
  if(gpu_sources)
    if(want_ptx)
      foreach(arch ${ARG_PTX_ARCHS})
        _anygpu_add_ptx(ptx "${name}" ${arch} "${gpu_sources}")
        list(APPEND ptx_files "${arch}=${ptx}")
        if(EXISTS "${ANYGPU_PTXAS}" AND arch IN_LIST ANYGPU_CUBIN_ARCHS)
          _anygpu_add_cubin(cubin "${name}" ${arch} "${ptx}")
          list(APPEND cubin_files "${arch}=${cubin}")
        endif()
      endforeach()
    endif()
    if(want_amdgpu)
      foreach(target_id ${ARG_AMDGPU_TARGETS})
        _anygpu_add_amdgpu(code_object "${name}" ${target_id} "${gpu_sources}")
        list(APPEND amdgpu_files "${target_id}=${code_object}")
      endforeach()
      _anygpu_find_packer(packer)
      if(packer)
        set(kernel_sources ${sources})
        list(FILTER kernel_sources EXCLUDE REGEX "\\.c$")
        list(GET ARG_AMDGPU_TARGETS 0 first_target)
        _anygpu_add_portable(portable "${name}" "${kernel_sources}" ${first_target})
        list(APPEND pack_args --portable "${portable}")
      endif()
    endif()
    if(want_spirv)
      _anygpu_add_spirv(spirv "${name}" "${opencl_sources}" "${hip_sources}")
      list(APPEND pack_args --spirv "${spirv}")
    endif()
  endif()
  set(gpu_files "")
  foreach(option_and_list "--ptx;ptx_files" "--cubin;cubin_files" "--amdgpu;amdgpu_files")
    list(GET option_and_list 0 option)
    list(GET option_and_list 1 list_name)
    foreach(entry ${${list_name}})
      list(APPEND pack_args ${option} "${entry}")
      string(REGEX REPLACE "^[^=]*=" "" file "${entry}")
      list(APPEND gpu_files "${file}")
    endforeach()
  endforeach()

  _anygpu_find_packer(packer)
  if(packer)
    set(image "${CMAKE_BINARY_DIR}/kernels/${name}.bundle")
    add_custom_command(OUTPUT "${image}"
      COMMAND ${packer} create -o "${image}" ${pack_args}
      DEPENDS anygpu_kernels_${name}_host "${host}" ${gpu_files} ${spirv} ${portable} ${packer}
      COMMENT "anygpu kernels: ${name}.bundle" VERBATIM)
  else()
    message(STATUS "anygpu kernels: no anygpu-pack, so ${name} embeds its host code object only")
    set(image "${host}")
  endif()
  add_custom_target(anygpu_kernels_${name} DEPENDS "${image}")
  add_dependencies(anygpu_kernels_${name} anygpu_kernels_${name}_host)
  set_target_properties(anygpu_kernels_${name} PROPERTIES
    ANYGPU_KERNEL_SOURCES "${sources}" ANYGPU_HOST_FILE "${host}" ANYGPU_IMAGE_FILE "${image}"
    ANYGPU_PTX_FILES "${ptx_files}" ANYGPU_CUBIN_FILES "${cubin_files}"
    ANYGPU_AMDGPU_FILES "${amdgpu_files}" ANYGPU_SPIRV_FILE "${spirv}"
    ANYGPU_PORTABLE_FILE "${portable}")
  _anygpu_write_embedding("${name}" "${image}")
endfunction()

# The assembly that embeds the image, and the header that declares it.
function(_anygpu_write_embedding name image)
  set(generated "${CMAKE_BINARY_DIR}/anygpu_images")
  file(CONFIGURE OUTPUT "${generated}/anygpu_image_${name}.S" @ONLY CONTENT
"/* Generated by anygpu_add_kernels: the ${name} code-object image. */
  .section .rodata.anygpu_image_${name},\"a\"
  .balign 64
  .globl anygpu_image_${name}
  .type anygpu_image_${name}, %object
anygpu_image_${name}:
  .incbin \"${image}\"
anygpu_image_${name}_end:
  .size anygpu_image_${name}, anygpu_image_${name}_end - anygpu_image_${name}
  .balign 8
  .globl anygpu_image_${name}_size
  .type anygpu_image_${name}_size, %object
anygpu_image_${name}_size:
  .quad anygpu_image_${name}_end - anygpu_image_${name}
  .size anygpu_image_${name}_size, 8
  .section .note.GNU-stack,\"\",%progbits
")
  file(CONFIGURE OUTPUT "${generated}/anygpu_image_${name}.h" @ONLY CONTENT
"/* Generated by anygpu_add_kernels: the ${name} code-object image embedded in this program. */
#pragma once
#include <stddef.h>
#ifdef __cplusplus
extern \"C\" {
#endif
extern const unsigned char anygpu_image_${name}[];
extern const size_t anygpu_image_${name}_size;
#ifdef __cplusplus
}
#endif
")
endfunction()

function(anygpu_add_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "HOST_ONLY;FAST_MATH" "TARGET;NAME"
    "SOURCES;PTX_ARCHS;AMDGPU_TARGETS;TARGETS;FLAGS")
  if(NOT ARG_TARGET OR NOT ARG_NAME OR NOT ARG_SOURCES)
    message(FATAL_ERROR "anygpu_add_kernels: TARGET, NAME and SOURCES are required")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT ASM IN_LIST languages)
    message(FATAL_ERROR "anygpu_add_kernels: the image is embedded with an assembly file; "
      "enable ASM (project(<name> LANGUAGES C CXX ASM) or enable_language(ASM))")
  endif()
  if(NOT ARG_PTX_ARCHS)
    set(ARG_PTX_ARCHS ${ANYGPU_PTX_ARCHS})
  endif()
  if(NOT ARG_AMDGPU_TARGETS)
    set(ARG_AMDGPU_TARGETS ${ANYGPU_AMDGPU_TARGETS})
  endif()
  # The targets of this image: every one by default; HOST_ONLY is TARGETS host.
  set(all_targets host ptx amdgpu spirv)
  if(ARG_HOST_ONLY)
    set(ARG_TARGETS host)
  elseif(NOT ARG_TARGETS)
    set(ARG_TARGETS ${all_targets})
  endif()
  foreach(target ${ARG_TARGETS})
    if(NOT target IN_LIST all_targets)
      message(FATAL_ERROR "anygpu_add_kernels(${ARG_NAME}): TARGETS takes host, ptx, amdgpu and "
        "spirv, not ${target}")
    endif()
  endforeach()
  if(NOT host IN_LIST ARG_TARGETS)
    message(FATAL_ERROR "anygpu_add_kernels(${ARG_NAME}): TARGETS must name host: the CPU "
      "device is always there, and the build finds CUDA sources' kernels in the host build")
  endif()
  # Kernel sources find anygpu's headers, CUDA's header names (cuda_runtime.h...) as anygpu's,
  # and the headers next to the CMakeLists.txt that builds them.
  set(_ANYGPU_KERNEL_INCLUDES -I${ANYGPU_KERNEL_INCLUDE_DIR}
    -I${ANYGPU_KERNEL_INCLUDE_DIR}/anygpu/cuda_compat -I${CMAKE_CURRENT_SOURCE_DIR})
  # Every compile of the image gets FLAGS; the GPU ones also the warning options (-W...) the
  # calling directory gives its C++ code, which the host build gets as any target does.
  get_directory_property(directory_options COMPILE_OPTIONS)
  separate_arguments(cxx_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS}")
  set(_ANYGPU_GPU_FLAGS "")
  foreach(option ${directory_options} ${cxx_flags})
    if(option MATCHES "^-W" AND NOT option MATCHES "^-W[alp],")
      list(APPEND _ANYGPU_GPU_FLAGS "${option}")
    endif()
  endforeach()
  # FAST_MATH, nvcc's -use_fast_math for the math functions: their float forms become CUDA's
  # intrinsics on the GPU targets (math_list.h); the host keeps libm, within the same bounds.
  if(ARG_FAST_MATH)
    list(APPEND ARG_FLAGS -DAGK_FAST_MATH=1)
  endif()
  set(_ANYGPU_KERNEL_FLAGS ${ARG_FLAGS})
  list(APPEND _ANYGPU_GPU_FLAGS ${ARG_FLAGS})
  if(NOT TARGET anygpu_kernels_${ARG_NAME})  # an image is built once, embedded in each target
    set(sources "")
    foreach(source ${ARG_SOURCES})
      get_filename_component(source "${source}" ABSOLUTE)
      list(APPEND sources "${source}")
    endforeach()
    _anygpu_build_image("${ARG_NAME}" SOURCES ${sources} TARGETS ${ARG_TARGETS}
      PTX_ARCHS ${ARG_PTX_ARCHS} AMDGPU_TARGETS ${ARG_AMDGPU_TARGETS})
  endif()
  set(generated "${CMAKE_BINARY_DIR}/anygpu_images")
  get_target_property(image anygpu_kernels_${ARG_NAME} ANYGPU_IMAGE_FILE)
  target_sources(${ARG_TARGET} PRIVATE "${generated}/anygpu_image_${ARG_NAME}.S")
  target_include_directories(${ARG_TARGET} PRIVATE "${generated}")
  set_source_files_properties("${generated}/anygpu_image_${ARG_NAME}.S"
    TARGET_DIRECTORY ${ARG_TARGET} PROPERTIES OBJECT_DEPENDS "${image}")
  add_dependencies(${ARG_TARGET} anygpu_kernels_${ARG_NAME})
endfunction()
