// The corotational per-tet loops in SIMD lanes; see corotational_lanes.hpp.
#include "corotational_lanes.hpp"

#include "core/cpu_dispatch.hpp"
#include "pliant/models/fem/polar_decomposition.hpp"

#include <algorithm>
#include <cstddef>

namespace pliant::fem::detail {
namespace {

// One double per tet lane: one 32-byte vector (AVX2) or two 16-byte ones (SSE2). Every member is forced
// inline so that the AVX2 instantiation is compiled for AVX2 (an out-of-line call would be baseline code
// passing 32-byte vectors through memory).
template <int Bytes>
struct Lanes {
  using V = typename cpu::DoubleVector<Bytes>::type;
  static constexpr int parts = 32 / Bytes, width = Bytes / 8;
  static_assert(parts * width == kTetLanes);
  V part[parts];

  PLIANT_ALWAYS_INLINE static Lanes all(double a) {
    Lanes r;
    for (int i = 0; i < parts; ++i) r.part[i] = V{} + a;
    return r;
  }
  // Lane l = a[l], built in registers (writing single lanes of a vector goes through memory).
  PLIANT_ALWAYS_INLINE static Lanes of(double a0, double a1, double a2, double a3) {
    Lanes r;
    if constexpr (parts == 1) {
      r.part[0] = V{a0, a1, a2, a3};
    } else {
      r.part[0] = V{a0, a1};
      r.part[1] = V{a2, a3};
    }
    return r;
  }
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

// The lanes' tets: lane l holds tet first + l, idle lanes (l ≥ count) repeat the last one.
struct LaneTets {
  std::size_t t[kTetLanes];
  LaneTets(Index first, int count) {
    for (int l = 0; l < kTetLanes; ++l) t[l] = static_cast<std::size_t>(first + std::min(l, count - 1));
  }
};

// D = [q1 - q0, q2 - q0, q3 - q0] of each lane's tet for a per-node field q.
template <int Bytes>
PLIANT_ALWAYS_INLINE void load_edges(const TetLaneData& d, const LaneTets& lt, const Vec3* q, Mat<Bytes>& D) {
  const Tet* tet[kTetLanes];
  for (int l = 0; l < kTetLanes; ++l) tet[l] = &d.tets[lt.t[l]];
  auto node = [&](int a, int r) {
    auto at = [&](int l) { return q[static_cast<std::size_t>((*tet[l])[a])][r]; };
    return Lanes<Bytes>::of(at(0), at(1), at(2), at(3));
  };
  for (int r = 0; r < 3; ++r) {
    const Lanes<Bytes> q0 = node(0, r);
    for (int c = 0; c < 3; ++c) D[r][c] = node(c + 1, r) - q0;
  }
}

template <int Bytes>
PLIANT_ALWAYS_INLINE void load_matrices(const Mat3* per_tet, const LaneTets& lt, Mat<Bytes>& M) {
  const Mat3 *m0 = &per_tet[lt.t[0]], *m1 = &per_tet[lt.t[1]], *m2 = &per_tet[lt.t[2]], *m3 = &per_tet[lt.t[3]];
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) M[r][c] = Lanes<Bytes>::of((*m0)(r, c), (*m1)(r, c), (*m2)(r, c), (*m3)(r, c));
}

// Per-lane material and volume: -V λ and -V μ (the slots' factors).
template <int Bytes>
PLIANT_ALWAYS_INLINE void load_moduli(const TetLaneData& d, const LaneTets& lt, Lanes<Bytes>& vl, Lanes<Bytes>& vm) {
  double l4[kTetLanes], m4[kTetLanes];
  for (int l = 0; l < kTetLanes; ++l) {
    const double V = d.volume[lt.t[l]];
    const materials::Material& mat = d.material[lt.t[l]];
    l4[l] = -V * mat.lambda;
    m4[l] = -V * mat.mu;
  }
  vl = Lanes<Bytes>::of(l4[0], l4[1], l4[2], l4[3]);
  vm = Lanes<Bytes>::of(m4[0], m4[1], m4[2], m4[3]);
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

// slot[4t + a] for a = 1..3 from the columns of W, slot[4t] = -(their sum), summed in the lanes: reading
// back the slots just written would stall on store forwarding (narrow stores, a wide load).
template <int Bytes>
PLIANT_ALWAYS_INLINE void store_slots(const Mat<Bytes>& W, const LaneTets& lt, int count, Vec3* slot) {
  Lanes<Bytes> w0[3];
  for (int r = 0; r < 3; ++r) w0[r] = Lanes<Bytes>::all(0.0) - (W[r][0] + W[r][1] + W[r][2]);
  for (int l = 0; l < count; ++l) {
    double* s = slot[4 * lt.t[l]].data();
    for (int r = 0; r < 3; ++r) s[r] = w0[r][l];
    for (int a = 0; a < 3; ++a)
      for (int r = 0; r < 3; ++r) s[3 * (a + 1) + r] = W[r][a][l];
  }
}

// X ← the rotation of F per lane: Newton's polar iteration in all lanes, the SVD for a lane it does not suit.
template <int Bytes>
PLIANT_ALWAYS_INLINE void rotations(const Mat<Bytes>& F, int count, Mat<Bytes>& X) {
  using L = Lanes<Bytes>;
  L det = F[0][0] * (F[1][1] * F[2][2] - F[1][2] * F[2][1]) - F[0][1] * (F[1][0] * F[2][2] - F[1][2] * F[2][0]) +
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

template <int Bytes>
PLIANT_ALWAYS_INLINE void forces_body(const TetLaneData& d, const Vec3* x, const Vec3* v, double beta, Index first,
                                      int count, Mat3* h, Vec3* slot) {
  using L = Lanes<Bytes>;
  const LaneTets lt(first, count);
  Mat<Bytes> m, F, R;  // Dm⁻¹, F = Ds Dm⁻¹, R
  {
    Mat<Bytes> ds;
    load_edges(d, lt, x, ds);
    load_matrices(d.dm_inverse, lt, m);
    mul(ds, m, F);
  }
  rotations(F, count, R);
  {
    Mat<Bytes> H;  // R Dm⁻ᵀ
    mul_a_bt(R, m, H);
    for (int l = 0; l < count; ++l) {
      Mat3& out = h[lt.t[l]];
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) out(r, c) = H[r][c][l];
    }
  }
  if (slot == nullptr) return;
  Mat<Bytes> S, E;  // S = Rᵀ F, E = sym(S) - I (+ β sym(Rᵀ ∇v))
  mul_at_b(R, F, S);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) E[r][c] = 0.5 * (S[r][c] + S[c][r]);
  for (int r = 0; r < 3; ++r) E[r][r] = E[r][r] - L::all(1.0);
  if (beta != 0.0) {
    Mat<Bytes> dv, G;
    load_edges(d, lt, v, dv);
    mul(dv, m, G);
    mul_at_b(R, G, S);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) E[r][c] = E[r][c] + (0.5 * beta) * (S[r][c] + S[c][r]);
  }
  // -V σ = -V (λ tr(E) I + 2μ E), then -V P = R (-V σ) and the slots -V P Dm⁻ᵀ.
  L vl, vm;
  load_moduli(d, lt, vl, vm);
  const L trace = vl * (E[0][0] + E[1][1] + E[2][2]);
  vm = 2.0 * vm;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) E[r][c] = vm * E[r][c];
  for (int r = 0; r < 3; ++r) E[r][r] = E[r][r] + trace;
  mul(R, E, S);
  Mat<Bytes> W;
  mul_a_bt(S, m, W);
  store_slots(W, lt, count, slot);
}

template <int Bytes>
PLIANT_ALWAYS_INLINE void products_body(const TetLaneData& d, const Mat3* h, const Vec3* p, Index first, int count,
                                        Vec3* slot) {
  using L = Lanes<Bytes>;
  const LaneTets lt(first, count);
  Mat<Bytes> H, E;
  {
    Mat<Bytes> D;
    load_edges(d, lt, p, D);
    load_matrices(h, lt, H);
    mul_a_bt(D, H, E);  // E = D Hᵀ = dF Rᵀ
  }
  L vl, vm;
  load_moduli(d, lt, vl, vm);
  const L trace = vl * (E[0][0] + E[1][1] + E[2][2]);
  Mat<Bytes> M, W;  // M = -V (λ tr(E) I + 2μ sym(E)), W = M H
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) M[r][c] = vm * (E[r][c] + E[c][r]);
  for (int r = 0; r < 3; ++r) M[r][r] = M[r][r] + trace;
  mul(M, H, W);
  store_slots(W, lt, count, slot);
}

void forces_baseline(const TetLaneData& d, const Vec3* x, const Vec3* v, double beta, Index first, int count,
                     Mat3* h, Vec3* slot) {
  forces_body<16>(d, x, v, beta, first, count, h, slot);
}
PLIANT_TARGET_AVX2 void forces_avx2(const TetLaneData& d, const Vec3* x, const Vec3* v, double beta, Index first,
                                    int count, Mat3* h, Vec3* slot) {
  forces_body<32>(d, x, v, beta, first, count, h, slot);
}
void products_baseline(const TetLaneData& d, const Mat3* h, const Vec3* p, Index first, int count, Vec3* slot) {
  products_body<16>(d, h, p, first, count, slot);
}
PLIANT_TARGET_AVX2 void products_avx2(const TetLaneData& d, const Mat3* h, const Vec3* p, Index first, int count,
                                      Vec3* slot) {
  products_body<32>(d, h, p, first, count, slot);
}

}  // namespace

void corotational_forces(const TetLaneData& data, const Vec3* x, const Vec3* v, double beta, Index first,
                         int count, Mat3* h, Vec3* slot, bool avx2) {
  if (avx2)
    forces_avx2(data, x, v, beta, first, count, h, slot);
  else
    forces_baseline(data, x, v, beta, first, count, h, slot);
}

void corotational_products(const TetLaneData& data, const Mat3* h, const Vec3* p, Index first, int count,
                           Vec3* slot, bool avx2) {
  if (avx2)
    products_avx2(data, h, p, first, count, slot);
  else
    products_baseline(data, h, p, first, count, slot);
}

}  // namespace pliant::fem::detail
