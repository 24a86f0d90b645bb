/* cache_hints.h — CUDA's loads and stores with a cache hint, for every compiler but NVRTC (whose
 * CUDA headers have them). Included by cuda_syntax.h and kernel_hiprtc.h; do not include
 * directly. */
#ifndef ANYGPU_DETAIL_CACHE_HINTS_H
#define ANYGPU_DETAIL_CACHE_HINTS_H

/* The loads and stores with a cache hint (__ldcs and __stcs streaming, __ldcg and __stcg past L1,
 * __ldca, __ldlu, __ldcv, __stwb, __stwt): hints to NVIDIA's caches, which an ordinary load or
 * store obeys exactly everywhere. The value is never deduced (CUDA has one overload per type, so
 * __stcs(float_pointer, 0) stores 0.0f), and is the pointee without its address space. */
#if defined(AGK_OPENCL)
template <typename T>
using agk_plain = typename __remove_address_space<T>::type;
#else
template <typename T>
struct agk_plain_type {
  typedef T type;
};
template <typename T>
using agk_plain = typename agk_plain_type<T>::type;
#endif
#define AGK_CACHE_HINT_LOAD(name)                 \
  template <typename T>                           \
  AG_DEVICE agk_plain<T> name(const T* address) { \
    return *address;                              \
  }
#define AGK_CACHE_HINT_STORE(name)                      \
  template <typename T>                                 \
  AG_DEVICE void name(T* address, agk_plain<T> value) { \
    *address = value;                                   \
  }
AGK_CACHE_HINT_LOAD(__ldca)
AGK_CACHE_HINT_LOAD(__ldcg)
AGK_CACHE_HINT_LOAD(__ldcs)
AGK_CACHE_HINT_LOAD(__ldlu)
AGK_CACHE_HINT_LOAD(__ldcv)
AGK_CACHE_HINT_STORE(__stwb)
AGK_CACHE_HINT_STORE(__stcg)
AGK_CACHE_HINT_STORE(__stcs)
AGK_CACHE_HINT_STORE(__stwt)
#undef AGK_CACHE_HINT_STORE
#undef AGK_CACHE_HINT_LOAD

#endif /* ANYGPU_DETAIL_CACHE_HINTS_H */
