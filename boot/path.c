/* SPDX-License-Identifier: BSD-2-Clause */
/* path.c — file paths as the loader uses them: CHAR16, backslash-separated,
 * absolute on a volume ("\EFI\BOOT\BOOTX64.EFI"). */
#include <boot/loader.h>

/* Append one path piece to out (len CHAR16s with the NUL), putting exactly
 * one backslash between pieces and turning '/' into '\'. Silently stops at
 * the buffer's end; callers size buffers for real paths. No locks. */
static void path_append(CHAR16 *out, UINTN out_len, const CHAR16 *piece, UINTN piece_len)
{
	UINTN n = StrLen(out);

	for (UINTN i = 0; i < piece_len && piece[i] != 0; i++) {
		CHAR16 c = piece[i] == L'/' ? L'\\' : piece[i];

		if (c == L'\\' && n > 0 && out[n - 1] == L'\\')
			continue;
		if (i == 0 && c != L'\\' && n > 0 && out[n - 1] != L'\\' && n + 1 < out_len)
			out[n++] = L'\\';
		if (n + 1 >= out_len)
			break;
		out[n++] = c;
	}
	out[n] = 0;
}

/* Write the file path part of a loaded image's device path into out: the
 * concatenation of its media file-path nodes. Firmware gives only those
 * nodes; GRUB's chainloader may give the whole device path. Empty if there
 * is none. Node names may be unaligned, so they are copied first. No locks. */
void path_of_image(const EFI_DEVICE_PATH *dp, CHAR16 *out, UINTN out_len)
{
	CHAR16 piece[LOADER_PATH_MAX];

	out[0] = 0;
	for (; dp && !IsDevicePathEndType(dp); dp = NextDevicePathNode(dp)) {
		UINTN len = DevicePathNodeLength(dp);

		if (len < 4)
			break;  /* malformed: a zero length would loop forever */
		if (DevicePathType(dp) != MEDIA_DEVICE_PATH || DevicePathSubType(dp) != MEDIA_FILEPATH_DP)
			continue;
		UINTN chars = (len - 4) / sizeof(CHAR16);

		if (chars >= LOADER_PATH_MAX)
			chars = LOADER_PATH_MAX - 1;
		CopyMem(piece, (const UINT8 *)dp + 4, chars * sizeof(CHAR16));
		piece[chars] = 0;
		path_append(out, out_len, piece, chars);
	}
}

/* The last component of path (after the last backslash). No locks. */
const CHAR16 *path_basename(const CHAR16 *path)
{
	const CHAR16 *base = path;

	for (const CHAR16 *p = path; *p; p++)
		if (*p == L'\\' || *p == L'/')
			base = p + 1;
	return base;
}

/* Write into out the path of file `name` in the directory that holds `path`.
 * No locks. */
void path_sibling(const CHAR16 *path, const CHAR16 *name, CHAR16 *out, UINTN out_len)
{
	UINTN dir_len = (UINTN)(path_basename(path) - path);

	out[0] = 0;
	path_append(out, out_len, L"\\", 1);
	path_append(out, out_len, path, dir_len);
	path_append(out, out_len, name, StrLen(name));
}

/* Convert an ASCII path from the configuration (either slash, leading
 * backslash optional) into an absolute CHAR16 path. FALSE if it is empty,
 * holds a non-printable or non-ASCII byte, or does not fit. No locks. */
BOOLEAN path_ascii_to_path(const char *src, UINTN len, CHAR16 *out, UINTN out_len)
{
	CHAR16 piece[LOADER_PATH_MAX];

	if (len == 0 || len >= LOADER_PATH_MAX || len + 2 > out_len)
		return FALSE;
	for (UINTN i = 0; i < len; i++) {
		unsigned char c = (unsigned char)src[i];

		if (c < 0x20 || c > 0x7e)
			return FALSE;
		piece[i] = c;
	}
	piece[len] = 0;
	out[0] = 0;
	path_append(out, out_len, L"\\", 1);
	path_append(out, out_len, piece, len);
	return StrLen(out) > 1;
}

/* ASCII-case-insensitive comparison of the a_len CHAR16s at a with the
 * NUL-terminated b. No locks. */
BOOLEAN path_equal_nocase(const CHAR16 *a, UINTN a_len, const CHAR16 *b)
{
	UINTN i;

	for (i = 0; i < a_len; i++) {
		CHAR16 x = a[i], y = b[i];

		if (y == 0)
			return FALSE;
		if (x >= L'A' && x <= L'Z')
			x += L'a' - L'A';
		if (y >= L'A' && y <= L'Z')
			y += L'a' - L'A';
		if (x != y)
			return FALSE;
	}
	return b[i] == 0;
}
