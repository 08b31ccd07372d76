/* SPDX-License-Identifier: BSD-2-Clause */
/* version.h — the build's identity, generated into build/version.c. */
#ifndef MOSAIC_VERSION_H
#define MOSAIC_VERSION_H
extern const char mosaic_version[];     /* `git describe --always --dirty` */
extern const char mosaic_build_date[];  /* UTC, YYYY-MM-DD */
#endif
