#include "linalg/panel_gemv.hpp"

#include "core/cpu_dispatch.hpp"
#include "pliant/core/threads.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#if PLIANT_X86_DISPATCH
#include <immintrin.h>
#endif

namespace pliant::linalg::detail {
namespace {

// Vector extensions (GCC and Clang) rather than left to the auto-vectoriser, which vectorises some
// panel sizes across the columns instead (a reduction with shuffles, several times slower). Bytes is the
// vector width of the target: 16 for SSE2, 32 for AVX2; a panel column is 128 bytes either way.
template <class T, int Bytes>
struct VectorOf {
  typedef T type __attribute__((vector_size(Bytes)));
};

template <class T, int Bytes>
PLIANT_ALWAYS_INLINE void panel_gemv_body(const T* __restrict a, Eigen::Index rows, Eigen::Index cols,
                                          const T* __restrict x, double* __restrict y) {
  using V = typename VectorOf<T, Bytes>::type;
  constexpr Eigen::Index width = Bytes / static_cast<Eigen::Index>(sizeof(T));
  constexpr Eigen::Index p = panel_rows<T>;
  constexpr int vectors = static_cast<int>(p / width);
  const Eigen::Index panels = (rows + p - 1) / p;
  for (Eigen::Index k = 0; k < panels; ++k, a += p * cols) {
    V sum[vectors] = {};
    for (Eigen::Index j = 0; j < cols; ++j) {
      const T xj = x[j];
      for (int v = 0; v < vectors; ++v) {
        V column;
        std::memcpy(&column, a + p * j + width * v, sizeof column);
        sum[v] += column * xj;
      }
    }
    T out[p];
    std::memcpy(out, sum, sizeof out);
    double* yk = y + p * k;
    const Eigen::Index n = std::min(p, rows - p * k);
    if (n == p) {
      for (Eigen::Index i = 0; i < p; ++i) yk[i] = static_cast<double>(out[i]);
    } else {
      for (Eigen::Index i = 0; i < n; ++i) yk[i] = static_cast<double>(out[i]);
    }
  }
}

}  // namespace

template <class T>
std::vector<T> pack_panels(const Eigen::MatrixXd& a) {
  constexpr Eigen::Index p = panel_rows<T>;
  const Eigen::Index panels = (a.rows() + p - 1) / p;
  std::vector<T> out(static_cast<std::size_t>(panels * p * a.cols()), T(0));
  for (Eigen::Index k = 0; k < panels; ++k)
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      for (Eigen::Index i = 0; i < p && p * k + i < a.rows(); ++i)
        out[static_cast<std::size_t>((k * a.cols() + j) * p + i)] = static_cast<T>(a(p * k + i, j));
  return out;
}

template std::vector<float> pack_panels<float>(const Eigen::MatrixXd&);
template std::vector<double> pack_panels<double>(const Eigen::MatrixXd&);

std::uint16_t float_to_half(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const int exponent = static_cast<int>((bits >> 23) & 0xffu);
  std::uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) return static_cast<std::uint16_t>(sign | 0x7c00u | (mantissa != 0 ? 0x200u : 0u));
  int e = exponent - 127 + 15;
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  // Keeps `shift` low bits of m off, rounding to nearest with ties to even.
  const auto round = [](std::uint32_t m, int shift) {
    const std::uint32_t kept = m >> shift, rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
    return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
  };
  if (e <= 0) {  // a subnormal half (or zero)
    if (e < -10) return sign;
    mantissa |= 0x800000u;
    return static_cast<std::uint16_t>(sign | round(mantissa, 14 - e));  // may round up into the normals
  }
  std::uint32_t m = round(mantissa, 13);
  if (m == 0x400u) {  // rounded up to the next binade
    m = 0;
    if (++e >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  }
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(e) << 10) | m);
}

float half_to_float(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000u) << 16;
  int exponent = (half >> 10) & 0x1f;
  std::uint32_t mantissa = half & 0x3ffu, bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exponent = 1;
      while (!(mantissa & 0x400u)) {
        mantissa <<= 1;
        --exponent;
      }
      bits = sign | (static_cast<std::uint32_t>(exponent - 15 + 127) << 23) | ((mantissa & 0x3ffu) << 13);
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | (static_cast<std::uint32_t>(exponent - 15 + 127) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

std::vector<std::uint16_t> pack_panels_half(const Eigen::MatrixXd& a, Eigen::VectorXf& scales) {
  constexpr Eigen::Index p = panel_rows<std::uint16_t>;
  scales.resize(a.cols());
  for (Eigen::Index j = 0; j < a.cols(); ++j) {
    const double largest = a.rows() > 0 ? a.col(j).cwiseAbs().maxCoeff() : 0.0;
    scales[j] = largest > 0.0 ? static_cast<float>(largest) : 1.0f;
  }
  const Eigen::Index panels = (a.rows() + p - 1) / p;
  std::vector<std::uint16_t> out(static_cast<std::size_t>(panels * p * a.cols()), 0);
  for (Eigen::Index k = 0; k < panels; ++k)
    for (Eigen::Index j = 0; j < a.cols(); ++j)
      for (Eigen::Index i = 0; i < p && p * k + i < a.rows(); ++i)
        out[static_cast<std::size_t>((k * a.cols() + j) * p + i)] =
            float_to_half(static_cast<float>(a(p * k + i, j) / static_cast<double>(scales[j])));
  return out;
}

namespace {

// Writes a panel's float sums to y as double (the last panel's padding rows dropped).
PLIANT_ALWAYS_INLINE void store_panel(const float* sums, Eigen::Index p, Eigen::Index k, Eigen::Index rows,
                                      double* y) {
  const Eigen::Index n = std::min(p, rows - p * k);
  for (Eigen::Index i = 0; i < n; ++i) y[p * k + i] = static_cast<double>(sums[i]);
}

}  // namespace

void panel_gemv_baseline(const std::uint16_t* panels, Eigen::Index rows, Eigen::Index cols, const float* x,
                         double* y) {
  constexpr Eigen::Index p = panel_rows<std::uint16_t>;
  const Eigen::Index count = (rows + p - 1) / p;
  for (Eigen::Index k = 0; k < count; ++k, panels += p * cols) {
    float sums[p] = {};
    for (Eigen::Index j = 0; j < cols; ++j)
      for (Eigen::Index i = 0; i < p; ++i) sums[i] += half_to_float(panels[p * j + i]) * x[j];
    store_panel(sums, p, k, rows, y);
  }
}

#if PLIANT_X86_DISPATCH
PLIANT_TARGET_AVX2_F16C void panel_gemv_avx2(const std::uint16_t* panels, Eigen::Index rows,
                                             Eigen::Index cols, const float* x, double* y) {
  constexpr Eigen::Index p = panel_rows<std::uint16_t>;  // 64: eight vectors of eight floats
  const Eigen::Index count = (rows + p - 1) / p;
  for (Eigen::Index k = 0; k < count; ++k, panels += p * cols) {
    __m256 sum[8];
    for (__m256& s : sum) s = _mm256_setzero_ps();
    for (Eigen::Index j = 0; j < cols; ++j) {
      const __m256 xj = _mm256_set1_ps(x[j]);
      const std::uint16_t* column = panels + p * j;
      for (int v = 0; v < 8; ++v) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(column + 8 * v));
        sum[v] = _mm256_fmadd_ps(_mm256_cvtph_ps(h), xj, sum[v]);
      }
    }
    float sums[p];
    for (int v = 0; v < 8; ++v) _mm256_storeu_ps(sums + 8 * v, sum[v]);
    store_panel(sums, p, k, rows, y);
  }
}
#else
void panel_gemv_avx2(const std::uint16_t* panels, Eigen::Index rows, Eigen::Index cols, const float* x,
                     double* y) {
  panel_gemv_baseline(panels, rows, cols, x, y);
}
#endif

void panel_gemv_baseline(const float* panels, Eigen::Index rows, Eigen::Index cols, const float* x,
                         double* y) {
  panel_gemv_body<float, 16>(panels, rows, cols, x, y);
}
void panel_gemv_baseline(const double* panels, Eigen::Index rows, Eigen::Index cols, const double* x,
                         double* y) {
  panel_gemv_body<double, 16>(panels, rows, cols, x, y);
}
PLIANT_TARGET_AVX2 void panel_gemv_avx2(const float* panels, Eigen::Index rows, Eigen::Index cols,
                                        const float* x, double* y) {
  panel_gemv_body<float, 32>(panels, rows, cols, x, y);
}
PLIANT_TARGET_AVX2 void panel_gemv_avx2(const double* panels, Eigen::Index rows, Eigen::Index cols,
                                        const double* x, double* y) {
  panel_gemv_body<double, 32>(panels, rows, cols, x, y);
}

namespace {

// Panels from which the product is split over the solver threads: below it a team costs more than it
// saves. The split is by contiguous panel ranges, so each output row is summed by one thread in the same
// order whatever the team: results are identical for any thread count.
constexpr Eigen::Index kParallelPanels = 64;

template <class T, class X>
void dispatch(const T* panels, Eigen::Index rows, Eigen::Index cols, const X* x, double* y) {
  using Kernel = void (*)(const T*, Eigen::Index, Eigen::Index, const X*, double*);
  const bool wide = std::is_same_v<T, std::uint16_t> ? cpu::has_avx2_f16c() : cpu::has_avx2_fma();
  const Kernel kernel =
      wide ? static_cast<Kernel>(&panel_gemv_avx2) : static_cast<Kernel>(&panel_gemv_baseline);
  constexpr Eigen::Index p = panel_rows<T>;
  const Eigen::Index count = (rows + p - 1) / p;
  const int team = count >= kParallelPanels ? solver_threads() : 1;
  if (team <= 1) {
    kernel(panels, rows, cols, x, y);
    return;
  }
#pragma omp parallel num_threads(team)
  {
    const Eigen::Index t = omp_get_thread_num(), n = omp_get_num_threads();
    const Eigen::Index begin = count * t / n, end = count * (t + 1) / n;
    if (end > begin)
      kernel(panels + begin * p * cols, std::min(rows, end * p) - begin * p, cols, x, y + begin * p);
  }
}

}  // namespace

void panel_gemv(const float* panels, Eigen::Index rows, Eigen::Index cols, const float* x, double* y) {
  dispatch(panels, rows, cols, x, y);
}
void panel_gemv(const double* panels, Eigen::Index rows, Eigen::Index cols, const double* x, double* y) {
  dispatch(panels, rows, cols, x, y);
}
void panel_gemv(const std::uint16_t* panels, Eigen::Index rows, Eigen::Index cols, const float* x,
                double* y) {
  dispatch(panels, rows, cols, x, y);
}

}  // namespace pliant::linalg::detail
