// The impact family's panel: every impact key is a setting (Milanović's parameters, the query
// structure, the grab and projectile constants), drawn from the family's settings table
// (settings_panel), so nothing is left to draw here.
#include "family_panel.hpp"

namespace pliant::viewer {

void impact_panel(const PanelContext&) {}

}  // namespace pliant::viewer
