/* The host input of the object-file bundle object_bundle_test.cpp makes with clang-offload-bundler:
 * any relocatable object will do, as a hipcc -fgpu-rdc object's host part. */
int object_bundle_host_function(int x) {
  return 2 * x + 1;
}
