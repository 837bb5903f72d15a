// The corotational per-tet loops in SIMD lanes; see corotational_lanes.hpp.
#include "models/fem/elements/corotational_lanes.hpp"

#include "core/cpu_dispatch.hpp"
#include "pliant/models/fem/elements/polar_decomposition.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace pliant::fem::detail {
namespace {

// One double per tet lane: one 64-byte vector (AVX-512), two 32-byte ones (AVX2) or four 16-byte ones
// (SSE2). Every member is forced inline so that each instantiation is compiled for its instruction set
// (an out-of-line call would be baseline code passing wide vectors through memory).
template <int Bytes>
struct Lanes {
  using V = typename cpu::DoubleVector<Bytes>::type;
  static constexpr int parts = 8 * kTetLanes / Bytes, width = Bytes / 8;
  static_assert(parts * width == kTetLanes);
  V part[parts];

  PLIANT_ALWAYS_INLINE static Lanes all(double a) {
    Lanes r;
    for (int i = 0; i < parts; ++i) r.part[i] = V{} + a;
    return r;
  }
  // Lane l = a[l], built in registers (writing single lanes of a vector goes through memory).
  template <class At>
  PLIANT_ALWAYS_INLINE static Lanes of(const At& at) {
    Lanes r;
    for (int i = 0; i < parts; ++i) {
      const int l = i * width;
      if constexpr (width == 8)
        r.part[i] = V{at(l), at(l + 1), at(l + 2), at(l + 3), at(l + 4), at(l + 5), at(l + 6), at(l + 7)};
      else if constexpr (width == 4)
        r.part[i] = V{at(l), at(l + 1), at(l + 2), at(l + 3)};
      else
        r.part[i] = V{at(l), at(l + 1)};
    }
    return r;
  }
  PLIANT_ALWAYS_INLINE static Lanes load(const double* a) {
    Lanes r;
    std::memcpy(r.part, a, sizeof r.part);
    return r;
  }
  PLIANT_ALWAYS_INLINE void store(double* a) const { std::memcpy(a, part, sizeof part); }
  PLIANT_ALWAYS_INLINE double operator[](int l) const { return part[l / width][l % width]; }
  PLIANT_ALWAYS_INLINE void set(int l, double a) { part[l / width][l % width] = a; }
  PLIANT_ALWAYS_INLINE friend Lanes operator+(Lanes a, const Lanes& b) {
    for (int i = 0; i < parts; ++i) a.part[i] += b.part[i];
    return a;
  }
  PLIANT_ALWAYS_INLINE friend Lanes operator-(Lanes a, const Lanes& b) {
    for (int i = 0; i < parts; ++i) a.part[i] -= b.part[i];
    return a;
  }
  PLIANT_ALWAYS_INLINE friend Lanes operator*(Lanes a, const Lanes& b) {
    for (int i = 0; i < parts; ++i) a.part[i] *= b.part[i];
    return a;
  }
  PLIANT_ALWAYS_INLINE friend Lanes operator/(Lanes a, const Lanes& b) {
    for (int i = 0; i < parts; ++i) a.part[i] /= b.part[i];
    return a;
  }
  PLIANT_ALWAYS_INLINE friend Lanes operator*(double s, Lanes a) {
    for (int i = 0; i < parts; ++i) a.part[i] *= s;
    return a;
  }
};

template <int Bytes>
using Mat = Lanes<Bytes>[3][3];  // [row][column]

// D = [q1 - q0, q2 - q0, q3 - q0] of the group's tets (from `tets`, the group's first) for a per-node
// field q.
// (No helper returning Lanes here: a lambda is compiled for the baseline target even inside an AVX2 or
// AVX-512 function, and where it is not inlined (the sanitizer build) a wide vector returned across that
// boundary breaks the call. The lambdas below return a double.)
template <int Bytes>
PLIANT_ALWAYS_INLINE void load_edges(const Tet* tets, const Vec3* q, Mat<Bytes>& D) {
  for (int r = 0; r < 3; ++r) {
    const Lanes<Bytes> q0 =
        Lanes<Bytes>::of([&](int l) { return q[static_cast<std::size_t>(tets[l][0])][r]; });
    for (int c = 0; c < 3; ++c)
      D[r][c] = Lanes<Bytes>::of([&](int l) { return q[static_cast<std::size_t>(tets[l][c + 1])][r]; }) - q0;
  }
}

// A group's 3×3 matrices in a lane array of kMatrixValues per tet (column-major), and back.
template <int Bytes>
PLIANT_ALWAYS_INLINE void load_lanes(const double* group, Mat<Bytes>& M) {
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) M[r][c] = Lanes<Bytes>::load(group + kTetLanes * (3 * c + r));
}
template <int Bytes>
PLIANT_ALWAYS_INLINE void store_lanes(const Mat<Bytes>& M, double* group) {
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) M[r][c].store(group + kTetLanes * (3 * c + r));
}

// C = A B, C = Aᵀ B and C = A Bᵀ (C distinct from A and B).
template <int Bytes>
PLIANT_ALWAYS_INLINE void mul(const Mat<Bytes>& A, const Mat<Bytes>& B, Mat<Bytes>& C) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) C[r][c] = A[r][0] * B[0][c] + A[r][1] * B[1][c] + A[r][2] * B[2][c];
}
template <int Bytes>
PLIANT_ALWAYS_INLINE void mul_at_b(const Mat<Bytes>& A, const Mat<Bytes>& B, Mat<Bytes>& C) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) C[r][c] = A[0][r] * B[0][c] + A[1][r] * B[1][c] + A[2][r] * B[2][c];
}
template <int Bytes>
PLIANT_ALWAYS_INLINE void mul_a_bt(const Mat<Bytes>& A, const Mat<Bytes>& B, Mat<Bytes>& C) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) C[r][c] = A[r][0] * B[c][0] + A[r][1] * B[c][1] + A[r][2] * B[c][2];
}

// A group's slots: node a = 1..3 from the columns of W, node 0 = -(their sum).
template <int Bytes>
PLIANT_ALWAYS_INLINE void store_slots(const Mat<Bytes>& W, double* group) {
  for (int r = 0; r < 3; ++r) {
    (Lanes<Bytes>::all(0.0) - (W[r][0] + W[r][1] + W[r][2])).store(group + kTetLanes * r);
    for (int a = 0; a < 3; ++a) W[r][a].store(group + kTetLanes * (3 * (a + 1) + r));
  }
}

// X ← the rotation of F per lane: Newton's polar iteration in all lanes, the SVD for a lane it does not suit.
template <int Bytes>
PLIANT_ALWAYS_INLINE void rotations(const Mat<Bytes>& F, int count, Mat<Bytes>& X) {
  using L = Lanes<Bytes>;
  L det = F[0][0] * (F[1][1] * F[2][2] - F[1][2] * F[2][1]) -
          F[0][1] * (F[1][0] * F[2][2] - F[1][2] * F[2][0]) +
          F[0][2] * (F[1][0] * F[2][1] - F[1][1] * F[2][0]);
  L mean_square = L::all(0.0);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) mean_square = mean_square + F[r][c] * F[r][c];
  mean_square = (1.0 / 3.0) * mean_square;
  bool usable[kTetLanes], converged[kTetLanes];
  for (int l = 0; l < kTetLanes; ++l) {
    // det / (‖F‖²/3)^{3/2} > 0.1, squared (as extract_rotation's Newton branch).
    const double ms = mean_square[l];
    usable[l] = det[l] > 0.0 && det[l] * det[l] > 0.01 * ms * ms * ms;
    converged[l] = false;
  }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) X[r][c] = F[r][c];
  for (int it = 0; it < 10; ++it) {
    Mat<Bytes> C;  // cofactors: X⁻ᵀ = C / det X
    C[0][0] = X[1][1] * X[2][2] - X[1][2] * X[2][1];
    C[0][1] = X[1][2] * X[2][0] - X[1][0] * X[2][2];
    C[0][2] = X[1][0] * X[2][1] - X[1][1] * X[2][0];
    C[1][0] = X[0][2] * X[2][1] - X[0][1] * X[2][2];
    C[1][1] = X[0][0] * X[2][2] - X[0][2] * X[2][0];
    C[1][2] = X[0][1] * X[2][0] - X[0][0] * X[2][1];
    C[2][0] = X[0][1] * X[1][2] - X[0][2] * X[1][1];
    C[2][1] = X[0][2] * X[1][0] - X[0][0] * X[1][2];
    C[2][2] = X[0][0] * X[1][1] - X[0][1] * X[1][0];
    const L d = X[0][0] * C[0][0] + X[0][1] * C[0][1] + X[0][2] * C[0][2];
    const L inverse = L::all(1.0) / d;
    L step = L::all(0.0);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        const L next = 0.5 * (X[r][c] + inverse * C[r][c]);
        const L delta = next - X[r][c];
        step = step + delta * delta;
        X[r][c] = next;
      }
    bool all = true;
    for (int l = 0; l < count; ++l) {
      if (!usable[l] || converged[l]) continue;
      if (!(d[l] > 0.0))
        usable[l] = false;
      else if (step[l] < 1e-18)
        converged[l] = true;
      else
        all = false;
    }
    if (all) break;
  }
  for (int l = 0; l < count; ++l) {
    if (usable[l] && converged[l]) continue;
    Mat3 Fl;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) Fl(r, c) = F[r][c][l];
    const Mat3 R = extract_rotation(Fl);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) X[r][c].set(l, R(r, c));
  }
}

// The group of tet `first` in a lane array of per_tet values.
std::size_t group_start(Index first, int per_tet) {
  return static_cast<std::size_t>(first / kTetLanes) * static_cast<std::size_t>(kTetLanes * per_tet);
}

template <int Bytes>
PLIANT_ALWAYS_INLINE void forces_body(const TetLaneData& d, const Vec3* x, const Vec3* v, double beta,
                                      Index first, int count, double* h, double* slot) {
  using L = Lanes<Bytes>;
  const Tet* tets = d.tets + first;
  Mat<Bytes> m, F, R;  // Dm⁻¹, F = Ds Dm⁻¹, R
  {
    Mat<Bytes> ds;
    load_edges(tets, x, ds);
    load_lanes(d.dm_inverse + group_start(first, kMatrixValues), m);
    mul(ds, m, F);
  }
  rotations(F, count, R);
  {
    Mat<Bytes> H;  // R Dm⁻ᵀ
    mul_a_bt(R, m, H);
    store_lanes(H, h + group_start(first, kMatrixValues));
  }
  if (slot == nullptr) return;
  Mat<Bytes> S, E;  // S = Rᵀ F, E = sym(S) - I (+ β sym(Rᵀ ∇v))
  mul_at_b(R, F, S);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) E[r][c] = 0.5 * (S[r][c] + S[c][r]);
  for (int r = 0; r < 3; ++r) E[r][r] = E[r][r] - L::all(1.0);
  if (beta != 0.0) {
    Mat<Bytes> dv, G;
    load_edges(tets, v, dv);
    mul(dv, m, G);
    mul_at_b(R, G, S);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) E[r][c] = E[r][c] + (0.5 * beta) * (S[r][c] + S[c][r]);
  }
  // -V σ = -V (λ tr(E) I + 2μ E), then -V P = R (-V σ) and the slots -V P Dm⁻ᵀ.
  const double* moduli = d.moduli + group_start(first, kModuliValues);
  const L vl = L::load(moduli), vm = 2.0 * L::load(moduli + kTetLanes);
  const L trace = vl * (E[0][0] + E[1][1] + E[2][2]);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) E[r][c] = vm * E[r][c];
  for (int r = 0; r < 3; ++r) E[r][r] = E[r][r] + trace;
  mul(R, E, S);
  Mat<Bytes> W;
  mul_a_bt(S, m, W);
  store_slots(W, slot + group_start(first, kSlotValues));
}

template <int Bytes>
PLIANT_ALWAYS_INLINE void products_body(const TetLaneData& d, const double* h, const Vec3* p, Index first,
                                        double* slot) {
  using L = Lanes<Bytes>;
  Mat<Bytes> H, E;
  {
    Mat<Bytes> D;
    load_edges(d.tets + first, p, D);
    load_lanes(h + group_start(first, kMatrixValues), H);
    mul_a_bt(D, H, E);  // E = D Hᵀ = dF Rᵀ
  }
  const double* moduli = d.moduli + group_start(first, kModuliValues);
  const L vl = L::load(moduli), vm = L::load(moduli + kTetLanes);
  const L trace = vl * (E[0][0] + E[1][1] + E[2][2]);
  Mat<Bytes> M, W;  // M = -V (λ tr(E) I + 2μ sym(E)), W = M H
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) M[r][c] = vm * (E[r][c] + E[c][r]);
  for (int r = 0; r < 3; ++r) M[r][r] = M[r][r] + trace;
  mul(M, H, W);
  store_slots(W, slot + group_start(first, kSlotValues));
}

PLIANT_TARGET_AVX512 void forces_avx512(const TetLaneData& d, const Vec3* x, const Vec3* v, double beta,
                                        Index first, int count, double* h, double* slot) {
  forces_body<64>(d, x, v, beta, first, count, h, slot);
}
void forces_baseline(const TetLaneData& d, const Vec3* x, const Vec3* v, double beta, Index first, int count,
                     double* h, double* slot) {
  forces_body<16>(d, x, v, beta, first, count, h, slot);
}
PLIANT_TARGET_AVX2 void forces_avx2(const TetLaneData& d, const Vec3* x, const Vec3* v, double beta,
                                    Index first, int count, double* h, double* slot) {
  forces_body<32>(d, x, v, beta, first, count, h, slot);
}
PLIANT_TARGET_AVX512 void products_avx512(const TetLaneData& d, const double* h, const Vec3* p, Index first,
                                          double* slot) {
  products_body<64>(d, h, p, first, slot);
}
void products_baseline(const TetLaneData& d, const double* h, const Vec3* p, Index first, double* slot) {
  products_body<16>(d, h, p, first, slot);
}
PLIANT_TARGET_AVX2 void products_avx2(const TetLaneData& d, const double* h, const Vec3* p, Index first,
                                      double* slot) {
  products_body<32>(d, h, p, first, slot);
}

}  // namespace

LaneKernel best_lane_kernel() {
  if (cpu::has_avx512f()) return LaneKernel::avx512;
  if (cpu::has_avx2_fma()) return LaneKernel::avx2;
  return LaneKernel::baseline;
}

void corotational_forces(const TetLaneData& data, const Vec3* x, const Vec3* v, double beta, Index first,
                         int count, double* h, double* slot, LaneKernel kernel) {
  switch (kernel) {
    case LaneKernel::avx512:
      return forces_avx512(data, x, v, beta, first, count, h, slot);
    case LaneKernel::avx2:
      return forces_avx2(data, x, v, beta, first, count, h, slot);
    case LaneKernel::baseline:
      return forces_baseline(data, x, v, beta, first, count, h, slot);
  }
}

void corotational_products(const TetLaneData& data, const double* h, const Vec3* p, Index first, double* slot,
                           LaneKernel kernel) {
  switch (kernel) {
    case LaneKernel::avx512:
      return products_avx512(data, h, p, first, slot);
    case LaneKernel::avx2:
      return products_avx2(data, h, p, first, slot);
    case LaneKernel::baseline:
      return products_baseline(data, h, p, first, slot);
  }
}

}  // namespace pliant::fem::detail
