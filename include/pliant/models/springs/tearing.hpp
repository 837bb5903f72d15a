// Membrane tearing on a SpringMesh: area-preserving tearing (Grimm 2005, section 3.3) and
// the reference method, tearing by deleting over-stretched springs (Grimm 2005, section 3.2).
//
// This header brings in the whole of it; each part has its own:
//   tear_event.hpp         TearEvent and TearKind, what both tearings report
//   tearing_area.hpp       area-preserving tearing (Tearing), node stress and node types
//   tearing_deletion.hpp   deletion tearing (DeletionTearing)
//   tearing_metrics.hpp    total rest area and the triangle graph's connected components
//
// Both report what they did as an event array, valid until the next step (no callbacks). A step
// allocates only while its scratch arrays and the mesh grow (warm-up); Tearing::step never throws.
#pragma once

#include "pliant/models/springs/tear_event.hpp"
#include "pliant/models/springs/tearing_area.hpp"
#include "pliant/models/springs/tearing_deletion.hpp"
#include "pliant/models/springs/tearing_metrics.hpp"
