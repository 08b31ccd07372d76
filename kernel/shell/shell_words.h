/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * shell_words.h — how the shell cuts what it is given: a boot script into
 * ';'-separated commands, a command line into words. Portable C, bounded,
 * no allocation and no locks (kernel/shell/shell_words.c; fuzzed on the
 * host by tests/fuzz/fuzz_shell_words.c).
 */
#ifndef MOSAIC_SHELL_WORDS_H
#define MOSAIC_SHELL_WORDS_H
#include <stddef.h>

#define SHELL_WORDS_TOO_MANY   (-1)   /* more than max words */
#define SHELL_WORDS_OPEN_QUOTE (-2)   /* a '"' without its closing one */

/* Splits line in place into words, argv[0..argc): blanks (space, tab)
 * separate words, a double-quoted part belongs to its word with its
 * blanks and without the quotes ("a b"c is the word `a bc`). Returns argc
 * (0..max), or SHELL_WORDS_TOO_MANY when a word max+1 begins, or
 * SHELL_WORDS_OPEN_QUOTE; line is then partly rewritten. */
int shell_split_words(char *line, char **argv, int max);

/* Copies the first ';'-separated command of script (a ';' inside double
 * quotes is part of it) into cmd[0..size), terminated, and returns where
 * the next command starts (after the ';', or at the script's end). Sets
 * *too_long when the command did not fit; cmd then holds its first
 * size-1 characters. size > 0. */
const char *shell_script_cut(const char *script, char *cmd, size_t size, int *too_long);

#endif
