// Private helper: y = A x for a tall, narrow dense matrix (the output rows of a modal basis, 3·#nodes ×
// r) stored in row panels, with an AVX2 + FMA version picked at run time (core/cpu_dispatch.hpp).
//
// Layout: A's rows are cut into panels of P = panel_rows<T> rows (the last one zero-padded); a panel is
// stored column after column, P contiguous values each, so one pass reads the matrix exactly once, in
// order, while a panel's P sums stay in vector registers (four 32-byte vectors with AVX2, eight 16-byte
// ones with SSE2). The sums are formed in T (float for halves) and written to y as double.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace pliant::linalg::detail {

/// Rows per panel: 64 halves (std::uint16_t, IEEE binary16), 32 floats or 16 doubles (128 bytes per panel
/// column).
template <class T>
inline constexpr Eigen::Index panel_rows = 128 / static_cast<Eigen::Index>(sizeof(T));

/// IEEE binary16 from float, rounded to nearest (ties to even); overflow gives infinity.
std::uint16_t float_to_half(float value);
/// float from IEEE binary16 (exact).
float half_to_float(std::uint16_t half);

/// A packed in panels: ⌈rows/P⌉ · P · cols values (T = float or double).
template <class T>
std::vector<T> pack_panels(const Eigen::MatrixXd& a);

/// A packed in panels of halves, each column divided by its largest magnitude (1 for a zero column), which
/// goes to scales[j]: y = A x is then panel_gemv with x_j · scales[j].
std::vector<std::uint16_t> pack_panels_half(const Eigen::MatrixXd& a, Eigen::VectorXf& scales);

/// y[0..rows) = A x, A packed by pack_panels with `rows` rows and `cols` columns; x holds cols values.
/// Uses the AVX2 version where the CPU has AVX2 and FMA, and from 64 panels on the solver threads
/// (contiguous panel ranges: the same result for any thread count).
void panel_gemv(const float* panels, Eigen::Index rows, Eigen::Index cols, const float* x, double* y);
void panel_gemv(const double* panels, Eigen::Index rows, Eigen::Index cols, const double* x, double* y);
/// Halves, summed in float (AVX2 with F16C where the CPU has them).
void panel_gemv(const std::uint16_t* panels, Eigen::Index rows, Eigen::Index cols, const float* x, double* y);

/// The two versions, for tests: baseline x86-64 (SSE2), and AVX2 + FMA (call only when
/// cpu::has_avx2_fma(); off x86 it is the baseline one).
void panel_gemv_baseline(const float* panels, Eigen::Index rows, Eigen::Index cols, const float* x,
                         double* y);
void panel_gemv_baseline(const double* panels, Eigen::Index rows, Eigen::Index cols, const double* x,
                         double* y);
void panel_gemv_avx2(const float* panels, Eigen::Index rows, Eigen::Index cols, const float* x, double* y);
void panel_gemv_avx2(const double* panels, Eigen::Index rows, Eigen::Index cols, const double* x, double* y);
/// The halves' two versions: baseline (software conversion), and AVX2 + F16C (call only when
/// cpu::has_avx2_f16c()).
void panel_gemv_baseline(const std::uint16_t* panels, Eigen::Index rows, Eigen::Index cols, const float* x,
                         double* y);
void panel_gemv_avx2(const std::uint16_t* panels, Eigen::Index rows, Eigen::Index cols, const float* x,
                     double* y);

}  // namespace pliant::linalg::detail
