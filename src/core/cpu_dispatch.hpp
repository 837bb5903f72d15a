// Private helper: run a hot loop with AVX2 + FMA where the CPU has them, in a binary built for baseline
// x86-64 (SSE2). A kernel writes its body once as an always-inline template, instantiates it in two
// functions, one of them marked PLIANT_TARGET_AVX2 (the compiler vectorises the same loops 8 floats or
// 4 doubles wide there), and picks one per call with cpu::has_avx2_fma():
//
//   template <class T> PLIANT_ALWAYS_INLINE void axpy_body(...) { for (...) y[i] += a * x[i]; }
//   void axpy_baseline(...) { axpy_body(...); }
//   PLIANT_TARGET_AVX2 void axpy_avx2(...) { axpy_body(...); }
//   void axpy(...) { cpu::has_avx2_fma() ? axpy_avx2(...) : axpy_baseline(...); }
//
// Both versions stay callable so that tests compare them. Off x86 (or with another compiler) the AVX2
// version is the baseline one and has_avx2_fma() is false.
#pragma once

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#define PLIANT_X86_DISPATCH 1
#define PLIANT_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define PLIANT_TARGET_AVX512 __attribute__((target("avx512f,avx2,fma")))
#define PLIANT_TARGET_AVX2_F16C __attribute__((target("avx2,fma,f16c")))
#else
#define PLIANT_X86_DISPATCH 0
#define PLIANT_TARGET_AVX2
#define PLIANT_TARGET_AVX512
#define PLIANT_TARGET_AVX2_F16C
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PLIANT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define PLIANT_ALWAYS_INLINE inline
#endif

namespace pliant::cpu {

/// Bytes/8 doubles in one GCC/Clang vector (16 bytes: SSE2, 32 bytes: AVX2): the lane type of the
/// kernels above. Arithmetic on it is element-wise; a scalar operand is broadcast.
template <int Bytes>
struct DoubleVector {
  typedef double type __attribute__((vector_size(Bytes)));
};

/// True when the running CPU supports AVX2 and FMA (and the OS saves the AVX registers), so that a
/// PLIANT_TARGET_AVX2 function may run; false off x86. Checked once.
inline bool has_avx2_fma() {
#if PLIANT_X86_DISPATCH
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return yes;
#else
  return false;
#endif
}

/// True when the running CPU supports AVX2, FMA and the half-precision conversions (F16C), so that a
/// PLIANT_TARGET_AVX2_F16C function may run; false off x86. Checked once.
inline bool has_avx2_f16c() {
#if PLIANT_X86_DISPATCH
  static const bool yes = [] {
    __builtin_cpu_init();
    // CPUID leaf 1, ECX bit 29 (Clang's __builtin_cpu_supports does not know "f16c").
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return has_avx2_fma() && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
  }();
  return yes;
#else
  return false;
#endif
}

/// True when the running CPU supports AVX-512F with AVX2 and FMA (and the OS saves the ZMM registers), so
/// that a PLIANT_TARGET_AVX512 function may run; false off x86. Checked once.
inline bool has_avx512f() {
#if PLIANT_X86_DISPATCH
  static const bool yes = [] {
    __builtin_cpu_init();
    return has_avx2_fma() && __builtin_cpu_supports("avx512f");
  }();
  return yes;
#else
  return false;
#endif
}

}  // namespace pliant::cpu
