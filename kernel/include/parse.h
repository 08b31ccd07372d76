/* parse.h — parsing numbers typed by people (shell arguments, sysctl
 * values). Portable C; no locks. */
#ifndef MOSAIC_PARSE_H
#define MOSAIC_PARSE_H
#include <stdint.h>

/* All of s as an unsigned number. base 10: decimal; base 16: hex with an
 * optional 0x; base 0: hex after 0x, else decimal. Returns 0, or -1 for an
 * empty string, a stray character or a value beyond 64 bits. */
int parse_u64(const char *s, unsigned base, uint64_t *out);
/* Like parse_u64 (base 0) with an optional leading '-'; -1 when the value
 * does not fit an int64_t. */
int parse_i64(const char *s, int64_t *out);

#endif
