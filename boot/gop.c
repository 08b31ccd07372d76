/* SPDX-License-Identifier: BSD-2-Clause */
/* gop.c — the framebuffer for the kernel's console, from the Graphics
 * Output Protocol. The mode follows the command line's video= policy
 * (boot/video.c, docs/boot.md "Framebuffer"): by default the monitor's
 * preferred mode when EDID names one the firmware lists, else the current
 * mode, never larger than 3840x2160 unless asked. Every mode is looked up
 * by its number (the first mode is not assumed to be the current one). */
#include <boot/loader.h>
#include <boot/video.h>

#define GOP_MODES_MAX 256

/* Does this GOP's current mode have a linear framebuffer? Boot services
 * only. */
static BOOLEAN gop_has_framebuffer(const EFI_GRAPHICS_OUTPUT_PROTOCOL *gop)
{
	return gop->Mode && gop->Mode->Info && gop->Mode->Info->PixelFormat != PixelBltOnly &&
	       gop->Mode->FrameBufferBase != 0;
}

/* The GOP to use and its handle: the console's if it has a linear
 * framebuffer, else the first other one that has, else whichever exists
 * (then without a framebuffer), or NULL. Boot services only. */
static EFI_GRAPHICS_OUTPUT_PROTOCOL *gop_find(EFI_HANDLE *handle_out)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *console = NULL, *found = NULL, *gop;
	EFI_HANDLE *handles = NULL, found_handle = NULL;
	UINTN count = 0;

	*handle_out = ST->ConsoleOutHandle;
	if (EFI_ERROR(BS->HandleProtocol(ST->ConsoleOutHandle, &gEfiGraphicsOutputProtocolGuid,
					 (VOID **)&console)))
		console = NULL;
	if (console && gop_has_framebuffer(console))
		return console;
	if (EFI_ERROR(BS->LocateHandleBuffer(ByProtocol, &gEfiGraphicsOutputProtocolGuid, NULL,
					     &count, &handles)))
		return console;
	for (UINTN i = 0; i < count; i++) {
		if (EFI_ERROR(BS->HandleProtocol(handles[i], &gEfiGraphicsOutputProtocolGuid,
						 (VOID **)&gop)))
			continue;
		if (!found || (!gop_has_framebuffer(found) && gop_has_framebuffer(gop))) {
			found = gop;
			found_handle = handles[i];
		}
	}
	FreePool(handles);
	if (console && (!found || !gop_has_framebuffer(found)))
		return console;
	*handle_out = found_handle;
	return found;
}

/* The monitor's preferred size from EDID (active, else discovered) on the
 * GOP's handle; 0x0 when there is none or it is refused (logged). */
static void gop_edid(EFI_HANDLE handle, UINT32 *w, UINT32 *h)
{
	static EFI_GUID active = EFI_EDID_ACTIVE_PROTOCOL_GUID;
	static EFI_GUID discovered = EFI_EDID_DISCOVERED_PROTOCOL_GUID;
	EFI_EDID_ACTIVE_PROTOCOL *edid = NULL;
	*w = *h = 0;
	if (!handle)
		return;
	if (EFI_ERROR(BS->HandleProtocol(handle, &active, (VOID **)&edid)) &&
	    EFI_ERROR(BS->HandleProtocol(handle, &discovered, (VOID **)&edid)))
		return;
	if (!edid || !edid->Edid || edid->SizeOfEdid == 0)
		return;
	const char *why = video_edid_preferred(edid->Edid, edid->SizeOfEdid, w, h);
	if (why) {
		log_info(L"graphics: %a; no preferred mode", why);
		*w = *h = 0;
	}
}

/* Set the mode the video= policy chooses. Boot services only. */
static void gop_pick_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *gop, EFI_HANDLE handle, const char *cmdline)
{
	static struct video_mode modes[GOP_MODES_MAX];
	struct video_policy policy = { .kind = VIDEO_AUTO };
	char value[VIDEO_VALUE_MAX];
	int found = video_cmdline_value(cmdline, value, sizeof(value));
	const char *why = found == 1 ? video_policy_parse(value, &policy) : NULL;
	if (found < 0)
		log_warn(L"graphics: video= value longer than %d characters; using video=auto",
			 VIDEO_VALUE_MAX - 1);
	else if (why)
		log_warn(L"graphics: video=%a: %a; using video=auto", value, why);

	UINT32 n = gop->Mode->MaxMode;
	if (n > GOP_MODES_MAX) {
		log_warn(L"graphics: the firmware lists %d modes; only the first %d are considered", n,
			 GOP_MODES_MAX);
		n = GOP_MODES_MAX;
	}
	for (UINT32 i = 0; i < n; i++) {
		EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *mi;
		UINTN mi_size;
		modes[i] = (struct video_mode){ 0 };
		if (EFI_ERROR(gop->QueryMode(gop, i, &mi_size, &mi)))
			continue;
		modes[i] = (struct video_mode){ .w = mi->HorizontalResolution,
						.h = mi->VerticalResolution,
						.usable = mi->PixelFormat != PixelBltOnly &&
							  mi_size >= sizeof(*mi) };
		FreePool(mi);
	}
	UINT32 ew, eh;
	gop_edid(handle, &ew, &eh);
	int cur = gop->Mode->Mode < n ? (int)gop->Mode->Mode : -1;
	const char *how;
	int pick = video_choose(modes, (int)n, cur, &policy, ew, eh, &how);
	if (pick < 0) {
		log_info(L"graphics: no mode with a linear framebuffer among %d", n);
		return;
	}
	if (ew)
		log_info(L"graphics: monitor prefers %dx%d (EDID)", ew, eh);
	if (pick == cur) {
		log_info(L"graphics: keeping mode %d, %dx%d: %a", pick, modes[pick].w, modes[pick].h, how);
		return;
	}
	EFI_STATUS status = gop->SetMode(gop, (UINT32)pick);
	if (EFI_ERROR(status))
		log_warn(L"graphics: cannot switch to mode %d, %dx%d (%r); keeping the current one", pick,
			 modes[pick].w, modes[pick].h, status);
	else
		log_info(L"graphics: switched to mode %d, %dx%d: %a", pick, modes[pick].w, modes[pick].h,
			 how);
}

/* Fill fb from the (possibly re-chosen) graphics mode; format BOOT_FB_NONE
 * if there is no GOP or no linear 32-bit framebuffer. Boot services only. */
void gop_collect(struct boot_framebuffer *fb, const char *cmdline)
{
	EFI_HANDLE handle;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = gop_find(&handle);
	const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;

	ZeroMem(fb, sizeof(*fb));
	if (!gop || !gop->Mode || !gop->Mode->Info) {
		log_info(L"graphics: no Graphics Output Protocol; the kernel gets no framebuffer");
		return;
	}
	gop_pick_mode(gop, handle, cmdline);
	info = gop->Mode->Info;
	switch (info->PixelFormat) {
	case PixelRedGreenBlueReserved8BitPerColor:
		fb->format = BOOT_FB_RGBX;
		break;
	case PixelBlueGreenRedReserved8BitPerColor:
		fb->format = BOOT_FB_BGRX;
		break;
	case PixelBitMask: {
		const EFI_PIXEL_BITMASK *m = &info->PixelInformation;

		if ((m->RedMask | m->GreenMask | m->BlueMask | m->ReservedMask) < 0x01000000u) {
			log_info(L"graphics: pixels are narrower than 32 bits; no framebuffer");
			return;
		}
		fb->format = BOOT_FB_BITMASK;
		fb->red_mask = m->RedMask;
		fb->green_mask = m->GreenMask;
		fb->blue_mask = m->BlueMask;
		fb->reserved_mask = m->ReservedMask;
		break;
	}
	default:
		log_info(L"graphics: %dx%d has no linear framebuffer (Blt only); no framebuffer",
			 info->HorizontalResolution, info->VerticalResolution);
		return;
	}
	if (gop->Mode->FrameBufferBase == 0) {
		log_info(L"graphics: the firmware reports no framebuffer address");
		fb->format = BOOT_FB_NONE;
		return;
	}
	fb->phys = gop->Mode->FrameBufferBase;
	fb->size = gop->Mode->FrameBufferSize;
	fb->width = info->HorizontalResolution;
	fb->height = info->VerticalResolution;
	fb->pitch = info->PixelsPerScanLine * 4;
	if ((UINT64)fb->pitch * fb->height > fb->size)
		fb->size = (UINT64)fb->pitch * fb->height;
	log_info(L"graphics: %dx%d, %d bytes per line, framebuffer at 0x%lx", fb->width,
		 fb->height, fb->pitch, fb->phys);
}
