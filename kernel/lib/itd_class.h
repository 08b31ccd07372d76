/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * itd_class.h — Intel Thread Director classes (Intel SDM vol. 3, "Hardware
 * Feedback Interface and Intel Thread Director"): the class the hardware
 * reports for the code a thread runs, read from IA32_THREAD_FEEDBACK_CHAR
 * (MSR 0x17D2) and used as the column of the HFI table that scores CPUs
 * for that thread. Numbering as Intel documents it for 12th- to 14th-gen
 * Core parts (four classes); a part may report fewer (CPUID 06H ECX[15:8]).
 * Portable: used by the kernel, the emulated platform and schedsim.
 */
#ifndef MOSAIC_ITD_CLASS_H
#define MOSAIC_ITD_CLASS_H

enum itd_class {
	ITD_SCALAR = 0,   /* most code: integer and scalar floating point */
	ITD_VECTOR = 1,   /* vector-heavy: AVX/AVX2 floating point and integer */
	ITD_VNNI = 2,     /* AI instructions: VNNI dot products */
	ITD_SPIN = 3,     /* spin-wait loops: PAUSE, UMWAIT/TPAUSE */
	ITD_CLASSES = 4
};

/* The most classes an HFI table can have columns for (CPUID 06H ECX[15:8]
 * is 8 bits; the emulated device and the driver keep at most this many). */
#define ITD_CLASS_MAX 8

#endif
