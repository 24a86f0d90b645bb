# Test programs that run on one of anygpu's test drivers (tests/drivers):
#
# anygpu_add_driver_test(<name> [STATIC] SOURCES ... [LABELS ...]
#   SUITE <name> BACKEND <AG_BACKEND_...> DRIVER_TARGET <target> [DRIVER <path>]
#   LIBRARY_VARIABLE <variable> KERNELS_VARIABLE <variable> DEVICES <ANYGPU_TEST_DEVICES value>
#   [LIBRARY <the library the backend reports; DRIVER by default>] [EXACT_DEVICE_COUNT <n>]
#   [DEVICE_COUNT_VARIABLE <variable> DEVICE_COUNT <n>] [ARCH_VARIABLE <variable> ARCH <id>])
# adds the test program (anygpu_add_test) with test_driver_environment.cpp (the environment set
# before main, and <SUITE>.BackendIsAvailable) and test_driver_control.cpp (the driver's control
# functions), the variables' names and values given as compile definitions, built after the driver
# (DRIVER_TARGET; DRIVER, the path anygpu is pointed at, is its file by default).
set(ANYGPU_TEST_SUPPORT_DIR ${CMAKE_CURRENT_LIST_DIR})

function(anygpu_add_driver_test name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "STATIC"
    "SUITE;BACKEND;DRIVER_TARGET;DRIVER;LIBRARY_VARIABLE;LIBRARY;KERNELS_VARIABLE;DEVICES;EXACT_DEVICE_COUNT;DEVICE_COUNT_VARIABLE;DEVICE_COUNT;ARCH_VARIABLE;ARCH"
    "SOURCES;LABELS")
  if(NOT ARG_DRIVER)
    set(ARG_DRIVER "$<TARGET_FILE:${ARG_DRIVER_TARGET}>")
  endif()
  if(NOT ARG_LIBRARY)
    set(ARG_LIBRARY "${ARG_DRIVER}")
  endif()
  set(static)
  if(ARG_STATIC)
    set(static STATIC)
  endif()
  anygpu_add_test(${name} ${static} LABELS ${ARG_LABELS} SOURCES ${ARG_SOURCES}
    ${ANYGPU_TEST_SUPPORT_DIR}/test_driver_environment.cpp
    ${ANYGPU_TEST_SUPPORT_DIR}/test_driver_control.cpp)
  target_link_libraries(${name} PRIVATE ${CMAKE_DL_LIBS})
  target_compile_definitions(${name} PRIVATE
    ANYGPU_TEST_DRIVER_SUITE=${ARG_SUITE}
    ANYGPU_TEST_DRIVER_BACKEND=${ARG_BACKEND}
    ANYGPU_TEST_DRIVER_PATH="${ARG_DRIVER}"
    ANYGPU_TEST_DRIVER_LIBRARY_VARIABLE="${ARG_LIBRARY_VARIABLE}"
    ANYGPU_TEST_DRIVER_LIBRARY="${ARG_LIBRARY}"
    ANYGPU_TEST_DRIVER_KERNELS_VARIABLE="${ARG_KERNELS_VARIABLE}"
    ANYGPU_TEST_DRIVER_DEVICES="${ARG_DEVICES}")
  if(ARG_EXACT_DEVICE_COUNT)
    target_compile_definitions(${name} PRIVATE
      ANYGPU_TEST_DRIVER_EXACT_DEVICE_COUNT=${ARG_EXACT_DEVICE_COUNT})
  endif()
  if(ARG_DEVICE_COUNT)
    target_compile_definitions(${name} PRIVATE
      ANYGPU_TEST_DRIVER_DEVICE_COUNT_VARIABLE="${ARG_DEVICE_COUNT_VARIABLE}"
      ANYGPU_TEST_DRIVER_DEVICE_COUNT="${ARG_DEVICE_COUNT}")
  endif()
  if(ARG_ARCH)
    target_compile_definitions(${name} PRIVATE
      ANYGPU_TEST_DRIVER_ARCH_VARIABLE="${ARG_ARCH_VARIABLE}"
      ANYGPU_TEST_DRIVER_ARCH="${ARG_ARCH}")
  endif()
  add_dependencies(${name} ${ARG_DRIVER_TARGET})
endfunction()

# anygpu_add_driver_suites(<add function> <backend>)
# The suites every test driver runs, added with <add function> (anygpu_add_<backend>_driver_test):
# conformance_<backend>_driver_tests, the whole conformance suite, result-checked; and
# concurrency_<backend>_driver_tests, many threads at once (run under ThreadSanitizer); and
# device_wait_<backend>_driver_tests, the device-wait test, outside the concurrency label: the
# test drivers run kernels on host memory, and its gate, written with a copy there, is a data race
# ThreadSanitizer reports (a real GPU has none).
function(anygpu_add_driver_suites add backend)
  cmake_language(CALL ${add} conformance_${backend}_driver_tests LABELS conformance SOURCES
    ${PROJECT_SOURCE_DIR}/tests/conformance/cuda_ports_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/cuda_sources_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/half_and_bits_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/half_math_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/kernel_names_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/atomics_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/kernels_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/streams_events_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/device_properties_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/function_attributes_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/pitched_copy_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/native_handles_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/managed_memory_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/peer_copy_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/stream_ordered_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/host_functions_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/modules_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/module_globals_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/math_accuracy_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/math_rounding_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/conformance/runtime_compile_test.cpp)
  anygpu_use_mpfr(conformance_${backend}_driver_tests)
  cmake_language(CALL ${add} concurrency_${backend}_driver_tests LABELS concurrency SOURCES
    ${PROJECT_SOURCE_DIR}/tests/concurrency/concurrency_test.cpp
    ${PROJECT_SOURCE_DIR}/tests/concurrency/destroy_while_in_use_test.cpp)
  cmake_language(CALL ${add} device_wait_${backend}_driver_tests LABELS conformance SOURCES
    ${PROJECT_SOURCE_DIR}/tests/concurrency/no_lock_across_device_wait_test.cpp)
endfunction()
