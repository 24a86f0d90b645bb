/* With nv_fatbin_object.S, a stand-in for a program nvcc links (its .nv_fatbin section). */
int main(void) {
  return 0;
}
