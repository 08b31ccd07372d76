/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_gen.h — machines nobody wrote by hand: a seeded generator of valid
 * machine descriptions (docs/machines.md's format) for schedsim's
 * property run (sim_props.c, docs/sim.md "Property run"). `schedsim --gen
 * SEED` prints one; saved to a file it is read back with --machine FILE.
 */
#ifndef MOSAIC_SIM_GEN_H
#define MOSAIC_SIM_GEN_H
#include <stddef.h>
#include <stdint.h>
#include <sim/sim_machine.h>

/* Room for the largest description the generator writes (36 CPUs). */
#define SIM_GEN_TEXT_MAX 8192

/* Writes the description of machine number seed (NUL-terminated) into
 * buf: the same seed gives the same text on every host. Returns its
 * length, or -1 when len is too small for it. */
int sim_gen_machine(uint64_t seed, char *buf, size_t len);
/* Machine number seed parsed and checked by the kernel's parser and built
 * into a tree, exactly as --machine FILE reads a file (sim_machine_parse),
 * its path "gen-SEED.machine"; text (SIM_GEN_TEXT_MAX bytes) receives the
 * description. 0, or -1 with the parser's reason in err (a generator bug). */
int sim_gen_load(uint64_t seed, struct sim_machine *sm, char *text, char *err, size_t len);

#endif
