// The surface-contract conformance suite that Pliant installs (share/pliant/conformance), run over
// every registered family with "bob" among them: registering before InitGoogleTest is all it takes,
// since the suite lists the families when Google Test sets up its parameterised tests.
#include "bob_family.hpp"

#include <gtest/gtest.h>

int main(int argc, char** argv) {
  bob::register_bob_family();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
