#include "models/fem/panel_gemv.hpp"

#include "core/cpu_dispatch.hpp"
#include "pliant/core/threads.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

namespace pliant::fem::detail {
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

template <class T>
void dispatch(const T* panels, Eigen::Index rows, Eigen::Index cols, const T* x, double* y) {
  using Kernel = void (*)(const T*, Eigen::Index, Eigen::Index, const T*, double*);
  const Kernel kernel =
      cpu::has_avx2_fma() ? static_cast<Kernel>(&panel_gemv_avx2) : static_cast<Kernel>(&panel_gemv_baseline);
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

}  // namespace pliant::fem::detail
