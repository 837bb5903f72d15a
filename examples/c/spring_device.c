/* See spring_device.h. */
#include "spring_device.h"

#include <math.h>

static const double kPi = 3.14159265358979323846;

void spring_device_init(spring_device* d, const double start[3], const double axis[3], const double side[3]) {
  int k;
  for (k = 0; k < 3; ++k) {
    d->start[k] = start[k];
    d->axis[k] = axis[k];
    d->side[k] = side[k];
    d->x[k] = start[k];
    d->v[k] = 0.0;
    d->force[k] = 0.0;
  }
  d->radius = 0.01;
  d->period = 1.0;
  d->mass = 0.05; /* a desktop stylus and the fingers on it */
  d->hand_k = 300.0;
  d->hand_b = 2.0;
  d->time = 0.0;
  d->peak_speed = 0.0;
}

/* The hand's target at time t: a circle that presses along `axis` and comes back. */
static void hand_at(const spring_device* d, double t, double out[3]) {
  const double phase = 2.0 * kPi * t / d->period;
  int k;
  for (k = 0; k < 3; ++k)
    out[k] = d->start[k] + d->radius * (sin(phase) * d->axis[k] + (1.0 - cos(phase)) * d->side[k]);
}

static int spring_read(void* context, double seconds, double position[3], double orientation[4]) {
  spring_device* d = (spring_device*)context;
  const double h = 1e-4; /* integration sub-step (unit: s) */
  int k;
  (void)orientation; /* a point handle: no orientation */
  /* Advance the handle to `seconds` under the hand and the force last sent (held, as a device's
   * amplifier holds it between servo ticks). */
  while (d->time + 0.5 * h < seconds) {
    double hand[3], speed2 = 0.0;
    hand_at(d, d->time, hand);
    for (k = 0; k < 3; ++k) {
      const double a = (d->force[k] + d->hand_k * (hand[k] - d->x[k]) - d->hand_b * d->v[k]) / d->mass;
      d->v[k] += h * a;
      d->x[k] += h * d->v[k];
      speed2 += d->v[k] * d->v[k];
    }
    if (sqrt(speed2) > d->peak_speed) d->peak_speed = sqrt(speed2);
    d->time += h;
  }
  for (k = 0; k < 3; ++k) position[k] = d->x[k];
  return PLIANT_DEVICE_OK;
}

static int spring_send_force(void* context, const double force[3]) {
  spring_device* d = (spring_device*)context;
  int k;
  for (k = 0; k < 3; ++k) d->force[k] = force[k];
  return PLIANT_DEVICE_OK;
}

static int spring_limits(void* context, pliant_device_limits* limits) {
  (void)context;
  limits->max_force = 3.3;         /* a 3D Systems Touch class device (N) */
  limits->max_stiffness = 1000.0;  /* N/m */
  limits->max_force_rate = 1000.0; /* N/s */
  return PLIANT_DEVICE_OK;
}

pliant_haptic_device spring_device_abi(spring_device* d) {
  pliant_haptic_device abi = {0}; /* optional members (buttons) stay NULL */
  abi.context = d;
  abi.read = spring_read;
  abi.send_force = spring_send_force;
  abi.limits = spring_limits;
  return abi;
}
