// Source of kernels.spv (see make_data.sh): parameters of every kind the SPIR-V reader lays out.
struct Pair { char tag; int count; double weight; };
struct Nested { struct Pair pair; short values[3]; };
kernel void scale(global float* data, float factor, int n) {
  int i = get_global_id(0);
  if (i < n) data[i] *= factor;
}
kernel void mixed(global int* out, char c, short s, long l, double d, struct Pair p, float4 v,
                  uchar u, struct Nested nested, local float* scratch, float3 w) {
  out[0] = c + s + l + (int)d + p.count + (int)v.x + u + nested.values[1] + (int)w.y;
  scratch[0] = 1.0f;
}
