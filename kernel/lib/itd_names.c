/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * itd_names.c — Thread Director class names (itd_names.h). Portable C.
 */
#include <lib/itd_names.h>
#include <lib/string.h>

static const char *const itd_names[ITD_CLASS_MAX] = { "scalar", "vector", "vnni", "spin",
						      "4", "5", "6", "7" };

/* See itd_names.h. */
const char *itd_class_name(unsigned cls)
{
	return cls < ITD_CLASS_MAX ? itd_names[cls] : "?";
}

/* See itd_names.h. */
int itd_class_by_name(const char *s)
{
	for (unsigned c = 0; c < ITD_CLASS_MAX; c++)
		if (strcmp(s, itd_names[c]) == 0 || (s[0] == (char)('0' + c) && s[1] == 0))
			return (int)c;
	return -1;
}
