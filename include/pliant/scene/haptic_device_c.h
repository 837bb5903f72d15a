/* The C ABI of a haptic device: what a device SDK wrapper written in C (or any language with a C
 * FFI) fills in so that Pliant's haptic loop can drive it. The loop calls these from its own thread
 * at its rate (default 1 kHz), never concurrently; `context` is the wrapper's own state, opaque to
 * Pliant. A C++ program wraps it with pliant::scene::wrap_c_device (scene/haptic_device.hpp).
 * docs/haptics.md shows how an OpenHaptics, Force Dimension or CHAI3D wrapper fills it in;
 * examples/c/spring_device.c is a complete one, compiled with the project. */
#ifndef PLIANT_SCENE_HAPTIC_DEVICE_C_H
#define PLIANT_SCENE_HAPTIC_DEVICE_C_H

#ifdef __cplusplus
extern "C" {
#endif

/* What a call returns. */
enum pliant_device_status {
  PLIANT_DEVICE_OK = 0,      /* the device answered */
  PLIANT_DEVICE_TIMEOUT = 1, /* no answer this sample (the loop holds the last force, then ramps it down) */
  PLIANT_DEVICE_FAULT = 2    /* the device reported an error (treated as no answer, counted apart) */
};

/* What the device can render without going unstable or overheating; each must be > 0. */
typedef struct pliant_device_limits {
  double max_force;      /* largest force the device may be sent (unit: N) */
  double max_stiffness;  /* largest stiffness it renders stably at a 1 kHz servo rate (unit: N/m) */
  double max_force_rate; /* largest change of force it may be sent (unit: N/s) */
} pliant_device_limits;

typedef struct pliant_haptic_device {
  void* context; /* the wrapper's state, passed back to every call */
  /* Reads the handle: position (unit: m) in the scene's frame, and, when the device has one, its
   * orientation as a unit quaternion w, x, y, z (leave `orientation` untouched if not). `seconds` is
   * the time since the loop started (unit: s); a real device may ignore it. */
  int (*read)(void* context, double seconds, double position[3], double orientation[4]);
  /* Sends the force to render on the hand (unit: N), already clamped to the device's limits. */
  int (*send_force)(void* context, const double force[3]);
  /* Fills in the device's limits; called once, before the loop starts. */
  int (*limits)(void* context, pliant_device_limits* limits);
  /* Optional (NULL: the device has no buttons): the buttons held down, read right after `read`, bit k
   * for button k (bit 0 closes a grasper's jaws while held: a Touch's first stylus button, an omega.7's
   * gripper closed). Zero-initialise the struct (`= {0}` or a brace list) so that optional members
   * read NULL. */
  int (*buttons)(void* context, unsigned* pressed);
} pliant_haptic_device;

#ifdef __cplusplus
}
#endif

#endif /* PLIANT_SCENE_HAPTIC_DEVICE_C_H */
