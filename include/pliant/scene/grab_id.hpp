// The handle of a grab a body holds: core's GrabId, named in the scene layer.
#pragma once

#include "pliant/core/grab_id.hpp"

namespace pliant::scene {

using GrabId = pliant::GrabId;

}  // namespace pliant::scene
