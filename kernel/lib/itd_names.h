/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * itd_names.h — the names of the Thread Director classes (itd_class.h) as
 * machine descriptions, the shell and `ps` spell them: scalar, vector,
 * vnni, spin for Intel's four, the digits 0..7 for any class. Portable.
 */
#ifndef MOSAIC_ITD_NAMES_H
#define MOSAIC_ITD_NAMES_H
#include <lib/itd_class.h>

/* "scalar", "vector", "vnni", "spin", then "4".."7"; "?" at or beyond
 * ITD_CLASS_MAX. */
const char *itd_class_name(unsigned cls);
/* The class of a name above or of a digit 0..7; -1 for anything else. */
int itd_class_by_name(const char *s);

#endif
