/* SPDX-License-Identifier: BSD-2-Clause */
/* volume.c — reading files. A file is looked up first on the volume the
 * loader itself was read from, then on the other volumes the firmware can
 * read (SimpleFileSystem handles: in practice FAT), those on the loader's
 * own device (its partitions, its El Torito images) before all others. The
 * search matters when GRUB loaded us from something the firmware cannot
 * read: the ISO 9660 file system of a CD, or a whole USB disk when GRUB
 * cannot name the partition's handle. */
#include <boot/loader.h>

#define VOL_READ_CHUNK (1024 * 1024)

static EFI_HANDLE vol_own_device;

/* Remember the loader's own device and say so if the firmware cannot read
 * it. Boot services only. */
void vol_init(EFI_HANDLE own_device)
{
	VOID *fs;

	vol_own_device = own_device;
	if (!own_device ||
	    EFI_ERROR(BS->HandleProtocol(own_device, &gEfiSimpleFileSystemProtocolGuid, &fs)))
		log_info(L"the loader's own volume has no file system the firmware can read; "
			 L"files are looked up on all volumes");
}

/* Open `path` on the volume of `device`. EFI_NOT_FOUND (silently) if the
 * device has no file system or no such file; other errors are printed.
 * Boot services only. */
static EFI_STATUS vol_open_on(EFI_HANDLE device, const CHAR16 *path, EFI_FILE_HANDLE *file,
			      UINT64 *size)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_FILE_HANDLE root, f;
	EFI_FILE_INFO *info;
	EFI_STATUS status;

	if (!device || EFI_ERROR(BS->HandleProtocol(device, &gEfiSimpleFileSystemProtocolGuid,
						     (VOID **)&fs)))
		return EFI_NOT_FOUND;
	status = fs->OpenVolume(fs, &root);
	if (EFI_ERROR(status))
		return EFI_NOT_FOUND;   /* no medium, unreadable: not our volume */
	status = root->Open(root, &f, (CHAR16 *)path, EFI_FILE_MODE_READ, 0);
	root->Close(root);
	if (EFI_ERROR(status))
		return EFI_NOT_FOUND;
	info = LibFileInfo(f);
	if (!info) {
		log_error(L"%s: cannot read the file's size", path);
		f->Close(f);
		return EFI_DEVICE_ERROR;
	}
	if (info->Attribute & EFI_FILE_DIRECTORY) {
		FreePool(info);
		f->Close(f);
		return EFI_NOT_FOUND;
	}
	*size = info->FileSize;
	FreePool(info);
	*file = f;
	return EFI_SUCCESS;
}

/* Print which volume a file was found on. Boot services only. */
static void vol_say_where(const CHAR16 *path, EFI_HANDLE device)
{
	CHAR16 *text = DevicePathToStr(DevicePathFromHandle(device));

	log_info(L"%s found on volume %s", path, text ? text : L"(no device path)");
	if (text)
		FreePool(text);
}

/* Is `device` below the loader's own device (a partition or El Torito
 * image of the same disk)? Its device path then extends the own one.
 * Boot services only. */
static BOOLEAN vol_below_own_device(EFI_HANDLE device)
{
	EFI_DEVICE_PATH *own = vol_own_device ? DevicePathFromHandle(vol_own_device) : NULL;
	EFI_DEVICE_PATH *dp = DevicePathFromHandle(device);
	UINTN own_len;

	if (!own || !dp)
		return FALSE;
	own_len = DevicePathSize(own) - END_DEVICE_PATH_LENGTH;
	return DevicePathSize(dp) > own_len + END_DEVICE_PATH_LENGTH &&
	       CompareMem(own, dp, own_len) == 0;
}

/* Open `path` for reading: on the loader's own volume if it is there, else
 * on the first volume of the loader's device that has it, else on the
 * first other volume. Returns EFI_NOT_FOUND without a message if no volume
 * has it (the caller knows what the file is for). Boot services only. */
EFI_STATUS vol_open(const CHAR16 *path, EFI_FILE_HANDLE *file, UINT64 *size)
{
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	EFI_STATUS status;

	status = vol_open_on(vol_own_device, path, file, size);
	if (status != EFI_NOT_FOUND)
		return status;
	status = BS->LocateHandleBuffer(ByProtocol, &gEfiSimpleFileSystemProtocolGuid, NULL,
					&count, &handles);
	if (EFI_ERROR(status))
		return EFI_NOT_FOUND;
	status = EFI_NOT_FOUND;
	for (UINTN pass = 0; pass < 2 && status == EFI_NOT_FOUND; pass++) {
		for (UINTN i = 0; i < count && status == EFI_NOT_FOUND; i++) {
			if (handles[i] == vol_own_device ||
			    vol_below_own_device(handles[i]) != (pass == 0))
				continue;
			status = vol_open_on(handles[i], path, file, size);
			if (status == EFI_SUCCESS)
				vol_say_where(path, handles[i]);
		}
	}
	FreePool(handles);
	return status;
}

/* Read exactly `size` bytes of an open file into buf, in chunks (some
 * firmware dislikes huge reads). Prints a message naming path on failure.
 * Boot services only. */
EFI_STATUS vol_read(EFI_FILE_HANDLE file, const CHAR16 *path, VOID *buf, UINT64 size)
{
	UINT64 done = 0;

	while (done < size) {
		UINTN n = size - done > VOL_READ_CHUNK ? VOL_READ_CHUNK : (UINTN)(size - done);
		EFI_STATUS status = file->Read(file, &n, (UINT8 *)buf + done);

		if (EFI_ERROR(status)) {
			log_error(L"%s: read error after %ld of %ld bytes (%r)", path, done, size, status);
			return status;
		}
		if (n == 0) {
			log_error(L"%s: file ended after %ld of %ld bytes", path, done, size);
			return EFI_END_OF_FILE;
		}
		done += n;
	}
	return EFI_SUCCESS;
}

/* Close a file from vol_open. Boot services only. */
void vol_close(EFI_FILE_HANDLE file)
{
	file->Close(file);
}

/* See loader.h. Boot services only. */
EFI_STATUS vol_read_whole(const CHAR16 *path, const CHAR16 *what, UINT64 max, UINT8 **buf,
			  UINT64 *size)
{
	EFI_FILE_HANDLE file;
	EFI_STATUS status = vol_open(path, &file, size);

	if (EFI_ERROR(status))
		return status;
	if (*size > max) {
		log_error(L"%s %s is %ld bytes; at most %ld are accepted", what, path, *size, max);
		vol_close(file);
		return EFI_BAD_BUFFER_SIZE;
	}
	*buf = AllocatePool(*size + 1);
	if (!*buf) {
		log_error(L"out of memory: cannot buffer the %ld-byte %s %s", *size, what, path);
		vol_close(file);
		return EFI_OUT_OF_RESOURCES;
	}
	status = vol_read(file, path, *buf, *size);
	vol_close(file);
	if (EFI_ERROR(status)) {
		FreePool(*buf);
		*buf = NULL;
	}
	return status;
}
