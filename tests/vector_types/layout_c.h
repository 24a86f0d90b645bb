/* The C half of the vector-type tests (layout_c.c), called from layout_test.cpp. */
#ifndef ANYGPU_TESTS_LAYOUT_C_H
#define ANYGPU_TESTS_LAYOUT_C_H
#ifdef __cplusplus
extern "C" {
#endif
/* How many make_* round trips (and dim3's initialiser) gave wrong members: 0 when right. */
int anygpu_vector_types_c_failures(void);
/* How many types the C checks covered. */
int anygpu_vector_types_c_count(void);
#ifdef __cplusplus
}
#endif
#endif
