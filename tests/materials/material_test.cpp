#include "pliant/materials/material.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pliant::materials {
namespace {

TEST(Material, YoungPoissonRoundTrip) {
  auto m = material_from_young_poisson(210e9, 0.3, 7800.0);
  ASSERT_TRUE(m.ok());
  EXPECT_NEAR(m->youngs_modulus(), 210e9, 1e-3);
  EXPECT_NEAR(m->poisson_ratio(), 0.3, 1e-15);
  // Independent textbook forms: μ = E / (2(1+ν)), K = E / (3(1-2ν)).
  EXPECT_NEAR(m->mu, 210e9 / 2.6, 1e-3);
  EXPECT_NEAR(m->bulk_modulus(), 210e9 / (3 * 0.4), 1e-2);
  EXPECT_EQ(m->density, 7800.0);
}

TEST(Material, NikitinaPresetsMatchPrintedLameConstantsAndDerivedModuli) {
  struct Case {
    const char* name;
    double lambda, mu, E, nu;
  };
  // E and ν derived from the Lamé constants printed by Nikitina et al. 2003.
  for (const Case& c :
       {Case{"steel", 119.42e9, 79.23e9, 206.1e9, 0.30}, Case{"ceramic", 124.12e9, 124.12e9, 310.3e9, 0.25},
        Case{"nikitina2003_rubber", 1.12e9, 0.047e9, 0.139e9, 0.48}}) {
    auto m = material_preset(c.name);
    ASSERT_TRUE(m.ok()) << c.name;
    EXPECT_DOUBLE_EQ(m->lambda, c.lambda) << c.name;
    EXPECT_DOUBLE_EQ(m->mu, c.mu) << c.name;
    EXPECT_NEAR(m->youngs_modulus() / c.E, 1.0, 2e-3) << c.name;
    EXPECT_NEAR(m->poisson_ratio(), c.nu, 5e-3) << c.name;
  }
}

TEST(Material, EveryPresetIsValidAndListed) {
  const auto names = material_preset_names();
  EXPECT_GE(names.size(), 10u);
  for (const auto& n : names) {
    auto m = material_preset(n);
    ASSERT_TRUE(m.ok()) << n;
    EXPECT_TRUE(validate(*m).ok()) << n;
    EXPECT_GT(m->density, 500.0) << n;
  }
  for (const char* tissue : {"liver", "kidney", "brain", "muscle", "fat"}) {
    auto m = material_preset(tissue);
    ASSERT_TRUE(m.ok()) << tissue;
    EXPECT_LT(m->youngs_modulus(), 1e6) << tissue << " should be soft";
  }
}

// The elastomer presets against the figures their sources print, converted independently here:
// Ogden's (1972) small-strain shear modulus of Treloar's rubber, 4.225 kg/cm², E = 3μ; the Smooth-On
// datasheets' 100% modulus S100 (psi) through the neo-Hookean S = μ(λ − λ⁻²) at λ = 2, E = 3μ; and
// Johnston et al. (2014) for Sylgard 184 cured at 25 °C.
TEST(Material, ElastomerPresetsFollowTheirCitedFigures) {
  const double kgf_per_cm2 = 9.80665e4, psi = 6894.757;
  const double ogden_mu = 4.225 * kgf_per_cm2;
  auto from_s100 = [&](double s100_psi) { return 3.0 * s100_psi * psi / (2.0 - 0.25); };
  struct Case {
    const char* name;
    double E;  // Pa
  };
  for (const Case& c : {Case{"rubber", 3.0 * ogden_mu}, Case{"ecoflex_00_30", from_s100(10)},
                        Case{"dragon_skin_10", from_s100(22)}, Case{"dragon_skin_30", from_s100(86)},
                        Case{"sylgard_184", 1.32e6}}) {
    auto m = material_preset(c.name);
    ASSERT_TRUE(m.ok()) << c.name;
    EXPECT_NEAR(m->youngs_modulus() / c.E, 1.0, 0.05) << c.name;  // presets round to 2 digits
    EXPECT_NEAR(m->poisson_ratio(), 0.45, 1e-12) << c.name;
    EXPECT_GT(m->density, 900.0) << c.name;
    EXPECT_LT(m->density, 1200.0) << c.name;
  }
  // "rubber" is real rubber now, about a hundred times softer than the paper's.
  const double real = material_preset("rubber")->youngs_modulus();
  const double paper = material_preset("nikitina2003_rubber")->youngs_modulus();
  EXPECT_GT(paper / real, 50.0);
  EXPECT_LT(real, 5e6);
}

TEST(Material, UnknownPresetNamesTheKnownOnes) {
  auto m = material_preset("unobtainium");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.message().find("unobtainium"), std::string::npos);
  // The list comes from the preset table: every name appears in the message.
  for (const auto& n : material_preset_names()) EXPECT_NE(m.message().find(n), std::string::npos) << n;
  EXPECT_EQ(m.message().find('\n'), std::string::npos);
}

TEST(Material, RejectsImpossibleParameters) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(material_from_young_poisson(1e6, 0.5).ok());
  EXPECT_FALSE(material_from_young_poisson(1e6, 0.7).ok());
  EXPECT_FALSE(material_from_young_poisson(1e6, -1.0).ok());
  EXPECT_FALSE(material_from_young_poisson(0.0, 0.3).ok());
  EXPECT_FALSE(material_from_young_poisson(-5.0, 0.3).ok());
  EXPECT_FALSE(material_from_young_poisson(nan, 0.3).ok());
  EXPECT_FALSE(material_from_young_poisson(1e6, nan).ok());
  EXPECT_FALSE(material_from_young_poisson(1e6, 0.3, 0.0).ok());
  EXPECT_FALSE(material_from_lame(1e6, 0.0).ok());
  EXPECT_FALSE(material_from_lame(-1e6, 1e6).ok());  // K = λ + 2μ/3 < 0
  EXPECT_FALSE(material_from_lame(nan, 1e6).ok());
  EXPECT_TRUE(material_from_lame(-0.5e6, 1e6).ok());  // auxetic (ν = -1/2) but admissible
  EXPECT_TRUE(material_from_young_poisson(1e6, -0.9).ok());
  const auto msg = material_from_young_poisson(1e6, 0.5).message();
  EXPECT_NE(msg.find("Poisson"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos);
}

TEST(Material, ElasticityMatrixGivesHookesLaw) {
  auto m = material_from_young_poisson(100.0, 0.25).value();
  // Uniaxial stress σxx = s with free lateral faces: εxx = s/E, εyy = εzz = -ν s/E.
  Eigen::Matrix<double, 6, 1> eps;
  eps << 1.0 / 100.0, -0.25 / 100.0, -0.25 / 100.0, 0, 0, 0;
  const Eigen::Matrix<double, 6, 1> sigma = elasticity_matrix(m) * eps;
  EXPECT_NEAR(sigma[0], 1.0, 1e-14);
  EXPECT_NEAR(sigma[1], 0.0, 1e-14);
  EXPECT_NEAR(sigma[2], 0.0, 1e-14);
  // Engineering shear strain γ gives τ = μ γ.
  eps.setZero();
  eps[3] = 0.01;
  EXPECT_NEAR((elasticity_matrix(m) * eps)[3], m.mu * 0.01, 1e-14);
}

}  // namespace
}  // namespace pliant::materials
