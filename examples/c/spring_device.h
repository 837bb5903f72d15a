/* A simulated haptic device written in C against Pliant's device ABI (pliant/scene/haptic_device_c.h):
 * a handle of mass m that a hand holds through a spring-damper and moves along a circle, while the
 * force Pliant sends pushes back on it. It closes the loop the way a real device and hand do, so a
 * rendering that is not passive shows up as a handle that buzzes. A wrapper for a real SDK has the
 * same three functions (docs/haptics.md). */
#ifndef PLIANT_EXAMPLE_SPRING_DEVICE_H
#define PLIANT_EXAMPLE_SPRING_DEVICE_H

#include "pliant/scene/haptic_device_c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct spring_device {
  double start[3];   /* where the hand and handle start (unit: m) */
  double axis[3];    /* unit vector the hand pushes along */
  double side[3];    /* unit vector, orthogonal to axis, the circle's second direction */
  double radius;     /* circle radius (unit: m) */
  double period;     /* one circle (unit: s) */
  double mass;       /* handle and hand mass (unit: kg) */
  double hand_k;     /* the hand's grip stiffness (unit: N/m) */
  double hand_b;     /* the hand's grip damping (unit: N·s/m) */
  double x[3], v[3]; /* handle state (unit: m, m/s) */
  double force[3];   /* last force Pliant sent (unit: N) */
  double time;       /* time of the state (unit: s) */
  double peak_speed; /* largest handle speed seen (unit: m/s) */
} spring_device;

/* Starts the handle at rest at `start`. */
void spring_device_init(spring_device* d, const double start[3], const double axis[3], const double side[3]);
/* The ABI table over `d`. */
pliant_haptic_device spring_device_abi(spring_device* d);

#ifdef __cplusplus
}
#endif

#endif
