#include "pliant/materials/material.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <string>

namespace pliant::materials {

double Material::youngs_modulus() const { return mu * (3.0 * lambda + 2.0 * mu) / (lambda + mu); }
double Material::poisson_ratio() const { return lambda / (2.0 * (lambda + mu)); }
double Material::bulk_modulus() const { return lambda + 2.0 * mu / 3.0; }

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

Status check_density(double density) {
  if (!std::isfinite(density) || density <= 0.0)
    return Error{"material: density must be a positive finite number (kg/m³), got " + num(density)};
  return {};
}

}  // namespace

Result<Material> material_from_young_poisson(double E, double nu, double density) {
  if (!std::isfinite(E) || E <= 0.0)
    return Error{"material: Young's modulus E must be a positive finite number (Pa), got " + num(E)};
  if (!std::isfinite(nu) || nu >= 0.5 || nu <= -1.0)
    return Error{"material: Poisson's ratio must lie in (-1, 0.5), got " + num(nu) +
                 (nu >= 0.5 && std::isfinite(nu) ? " (0.5 is incompressible: use 0.45-0.49)" : "")};
  if (auto s = check_density(density); !s) return s.error();
  Material m;
  m.mu = E / (2.0 * (1.0 + nu));
  m.lambda = E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  m.density = density;
  return m;
}

Result<Material> material_from_lame(double lambda, double mu, double density) {
  Material m{lambda, mu, density};
  if (auto s = validate(m); !s) return s.error();
  return m;
}

Status validate(const Material& m) {
  if (!std::isfinite(m.lambda) || !std::isfinite(m.mu))
    return Error{"material: Lamé constants must be finite, got λ=" + num(m.lambda) + " μ=" + num(m.mu)};
  if (m.mu <= 0.0) return Error{"material: shear modulus μ must be positive (Pa), got " + num(m.mu)};
  if (m.bulk_modulus() <= 0.0)
    return Error{"material: bulk modulus λ + 2μ/3 must be positive (Pa), got λ=" + num(m.lambda) +
                 " μ=" + num(m.mu) + " (Poisson's ratio would be ≤ -1)"};
  return check_density(m.density);
}

namespace {

struct Preset {
  const char* name;
  bool lame;       // true: a = λ, b = μ; false: a = E, b = ν
  double a, b;     // see `lame` (unit: Pa, or dimensionless for ν)
  double density;  // unit: kg/m³
};

constexpr double GPa = 1e9;
constexpr double MPa = 1e6;
constexpr double kPa = 1e3;

// Nearly incompressible solids (rubber, silicone, soft tissue: ν ≈ 0.49-0.5 in reality) are given
// their measured small-strain Young's modulus E with ν = 0.45: linear tetrahedra lock (become far too
// stiff) as ν → 0.5, and 0.45 keeps the stiffening mild (docs/accuracy.md). Real rubber and tissue
// are non-linear and viscoelastic and vary between batches and subjects by a factor of 2 or more:
// these are small-strain starting points, not truths. Where a datasheet gives only the "100%
// modulus" S100 (nominal stress at 100% elongation), the small-strain E follows from the neo-Hookean
// law S = μ(λ − λ⁻²) at stretch λ = 2: μ = S100 / 1.75, E = 3μ.
constexpr std::array<Preset, 18> kPresets{{
    // Nikitina et al. 2003 ("Linear FEM with precomputed Green's functions"): Lamé constants exactly
    // as printed, in GPa. Their steel and ceramic are realistic values.
    {"steel", true, 119.42 * GPa, 79.23 * GPa, 7850.0},     // E ≈ 206 GPa, ν ≈ 0.30
    {"ceramic", true, 124.12 * GPa, 124.12 * GPa, 3900.0},  // E ≈ 310 GPa, ν = 0.25 (alumina density)
    // Natural rubber (unfilled sulphur vulcanisate): shear modulus μ = 0.41 MPa, the small-strain
    // limit of Ogden's fit (Proc. R. Soc. Lond. A 326, 1972) to Treloar's data (Trans. Faraday Soc.
    // 40, 1944); E = 3μ ≈ 1.2 MPa. Density 930 kg/m³ (cis-polyisoprene 910-930 kg/m³, Mark (ed.),
    // Physical Properties of Polymers Handbook, 2007). Earlier Pliant versions gave the next
    // entry this name (docs/green.md, "Materials").
    {"rubber", false, 1.2 * MPa, 0.45, 930.0},
    // The "rubber" of Nikitina et al. 2003 as printed (λ = 1.12 GPa, μ = 0.047 GPa: E ≈ 0.139 GPa,
    // ν ≈ 0.48): about a hundred times stiffer than real soft rubber (a hard rubber or plastic).
    {"nikitina2003_rubber", true, 1.12 * GPa, 0.047 * GPa, 1100.0},
    // Platinum-cure silicones common in soft robotics and surgical phantoms (Smooth-On technical
    // bulletins; E from the 100% modulus as above; specific gravity as printed there):
    // Ecoflex 00-30: S100 = 10 psi = 69 kPa -> E ≈ 0.12 MPa; 1070 kg/m³.
    {"ecoflex_00_30", false, 0.12 * MPa, 0.45, 1070.0},
    // Dragon Skin 10: S100 = 22 psi = 152 kPa -> E ≈ 0.26 MPa; 1070 kg/m³.
    {"dragon_skin_10", false, 0.26 * MPa, 0.45, 1070.0},
    // Dragon Skin 30: S100 = 86 psi = 593 kPa -> E ≈ 1.0 MPa; 1080 kg/m³.
    {"dragon_skin_30", false, 1.0 * MPa, 0.45, 1080.0},
    // Sylgard 184 (PDMS, 10:1): E = 1.32 MPa cured at 25 °C, rising to 2.97 MPa cured at 200 °C
    // (Johnston et al., "Mechanical characterization of bulk Sylgard 184 for microfluidics and
    // microengineering", J. Micromech. Microeng. 24(3), 2014); density 1030 kg/m³ (Dow datasheet).
    {"sylgard_184", false, 1.32 * MPa, 0.45, 1030.0},
    // Liver: transient elastography of healthy livers gives about 5 kPa (Sandrin et al., "Transient
    // elastography: a new noninvasive method for assessment of hepatic fibrosis", Ultrasound in
    // Medicine & Biology 29(12), 2003). Density 1060 kg/m³ (ICRP Publication 89, 2002).
    {"liver", false, 5.0 * kPa, 0.45, 1060.0},
    // Kidney: shear-wave elastography of healthy renal cortex reports shear moduli of a few kPa,
    // E ≈ 3G ≈ 10 kPa (order of magnitude from Grenier et al., "Renal ultrasound elastography",
    // Diagnostic and Interventional Imaging 94(5), 2013). Density 1050 kg/m³ (ICRP 89).
    {"kidney", false, 10.0 * kPa, 0.45, 1050.0},
    // Brain: indentation of human brain slices, white matter 1.9 kPa and grey matter 1.4 kPa
    // (Budday et al., "Mechanical properties of gray and white matter brain tissue by indentation",
    // J. Mech. Behav. Biomed. Mater. 46, 2015); "brain" is their mean. Density 1040 kg/m³ (ICRP 89).
    {"brain", false, 1.6 * kPa, 0.45, 1040.0},
    {"brain_white", false, 1.9 * kPa, 0.45, 1040.0},
    {"brain_gray", false, 1.4 * kPa, 0.45, 1040.0},
    // Relaxed skeletal muscle: shear modulus ≈ 4 kPa by supersonic shear imaging at rest, E ≈ 3G
    // (Gennisson et al., "Viscoelastic and anisotropic mechanical properties of in vivo muscle
    // tissue assessed by supersonic shear imaging", Ultrasound Med. Biol. 36(5), 2010), isotropic
    // approximation of an anisotropic tissue. Density 1050 kg/m³ (ICRP 89).
    {"muscle", false, 12.0 * kPa, 0.45, 1050.0},
    // Fat: breast adipose tissue 3.25 kPa (Samani, Zubovits & Plewes, "Elastic moduli of normal and
    // pathological human breast tissues", Phys. Med. Biol. 52(6), 2007). Density 950 kg/m³ (ICRP 89).
    {"fat", false, 3.25 * kPa, 0.45, 950.0},
    // Skin (dermis), small-strain in vivo modulus of order 0.1-1 MPa; 0.4 MPa is within the range
    // collected by Joodaki & Panzer, "Skin mechanical properties and modeling: a review", Proc. IMechE
    // H 232(4), 2018. Density 1100 kg/m³ (ICRP 89).
    {"skin", false, 0.4e6, 0.45, 1100.0},
    // Articular cartilage, equilibrium (drained) modulus ≈ 0.6 MPa with ν ≈ 0.1 (Mow et al.,
    // "Biphasic creep and stress relaxation of articular cartilage in compression", J. Biomech. Eng.
    // 102(1), 1980, order of magnitude). Density 1100 kg/m³.
    {"cartilage", false, 0.6e6, 0.1, 1100.0},
    // A generic very soft silicone gel for phantoms, E = 50 kPa: softer than the softest Ecoflex
    // with a published modulus (Ecoflex 00-10: S100 = 8 psi = 55 kPa -> E ≈ 94 kPa), in the range of
    // stiff tissue. Not a product's value.
    {"silicone_gel", false, 50.0 * kPa, 0.45, 1070.0},
}};

Result<Material> make(const Preset& p) {
  return p.lame ? material_from_lame(p.a, p.b, p.density) : material_from_young_poisson(p.a, p.b, p.density);
}

}  // namespace

Result<Material> material_preset(std::string_view name) {
  for (const Preset& p : kPresets)
    if (name == p.name) return make(p);
  std::string list;
  for (const std::string& n : material_preset_names()) list += (list.empty() ? "" : ", ") + n;
  return Error{"material: unknown preset '" + std::string(name) + "' (known: " + list + ")"};
}

std::vector<std::string> material_preset_names() {
  std::vector<std::string> names;
  for (const Preset& p : kPresets) names.emplace_back(p.name);
  return names;
}

Eigen::Matrix<double, 6, 6> elasticity_matrix(const Material& m) {
  Eigen::Matrix<double, 6, 6> D = Eigen::Matrix<double, 6, 6>::Zero();
  D.topLeftCorner<3, 3>().setConstant(m.lambda);
  for (int i = 0; i < 3; ++i) D(i, i) += 2.0 * m.mu;
  for (int i = 3; i < 6; ++i) D(i, i) = m.mu;
  return D;
}

}  // namespace pliant::materials
