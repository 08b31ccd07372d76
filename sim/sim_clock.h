/* SPDX-License-Identifier: BSD-2-Clause */
/* sim_clock.h — host wall-clock time for schedsim's progress line. */
#ifndef MOSAIC_SIM_CLOCK_H
#define MOSAIC_SIM_CLOCK_H
/* Seconds of the host's monotonic clock. */
double sim_host_seconds(void);
#endif
