/* gop.c — the framebuffer for the kernel's console, from the Graphics
 * Output Protocol. The current mode is kept unless it is larger than
 * GOP_MAX_WIDTH x GOP_MAX_HEIGHT (a software console gets slow and its
 * font tiny on a 4K screen); then the largest mode within that box wins. */
#include "loader.h"

#define GOP_MAX_WIDTH  1280
#define GOP_MAX_HEIGHT 800

/* Does this GOP's current mode have a linear framebuffer? Boot services
 * only. */
static BOOLEAN gop_has_framebuffer(const EFI_GRAPHICS_OUTPUT_PROTOCOL *gop)
{
	return gop->Mode && gop->Mode->Info && gop->Mode->Info->PixelFormat != PixelBltOnly &&
	       gop->Mode->FrameBufferBase != 0;
}

/* The GOP to use: the console's if it has a linear framebuffer, else the
 * first other one that has, else whichever exists (then without a
 * framebuffer), or NULL. Machines with several displays (or a firmware
 * console that merges them) need the search. Boot services only. */
static EFI_GRAPHICS_OUTPUT_PROTOCOL *gop_find(void)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *console = NULL, *found = NULL, *gop;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

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
		if (!found || (!gop_has_framebuffer(found) && gop_has_framebuffer(gop)))
			found = gop;
	}
	FreePool(handles);
	return console && (!found || !gop_has_framebuffer(found)) ? console : found;
}

/* If the current mode is larger than the box, switch to the largest mode
 * with a linear framebuffer inside it, if there is one. Boot services only. */
static void gop_pick_mode(EFI_GRAPHICS_OUTPUT_PROTOCOL *gop)
{
	const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *cur = gop->Mode->Info;
	UINT32 old_w = cur->HorizontalResolution, old_h = cur->VerticalResolution;
	UINT64 best_area = 0;
	UINT32 best = 0, best_w = 0, best_h = 0;

	if (old_w <= GOP_MAX_WIDTH && old_h <= GOP_MAX_HEIGHT)
		return;
	for (UINT32 i = 0; i < gop->Mode->MaxMode; i++) {
		EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *mi;
		UINTN mi_size;

		if (EFI_ERROR(gop->QueryMode(gop, i, &mi_size, &mi)))
			continue;
		UINT32 w = mi->HorizontalResolution, h = mi->VerticalResolution;

		if (mi->PixelFormat != PixelBltOnly && w <= GOP_MAX_WIDTH && h <= GOP_MAX_HEIGHT &&
		    (UINT64)w * h > best_area) {
			best_area = (UINT64)w * h;
			best = i;
			best_w = w;
			best_h = h;
		}
		FreePool(mi);
	}
	if (best_area == 0) {
		log_info(L"graphics: keeping %dx%d, no mode within %dx%d", old_w, old_h,
			 GOP_MAX_WIDTH, GOP_MAX_HEIGHT);
		return;
	}
	EFI_STATUS status = gop->SetMode(gop, best);

	if (EFI_ERROR(status))
		log_warn(L"graphics: cannot switch from %dx%d to %dx%d (%r); keeping it", old_w,
			 old_h, best_w, best_h, status);
	else
		log_info(L"graphics: switched from %dx%d to %dx%d", old_w, old_h, best_w, best_h);
}

/* Fill fb from the (possibly re-chosen) graphics mode; format BOOT_FB_NONE
 * if there is no GOP or no linear 32-bit framebuffer. Boot services only. */
void gop_collect(struct boot_framebuffer *fb)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = gop_find();
	const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;

	ZeroMem(fb, sizeof(*fb));
	if (!gop || !gop->Mode || !gop->Mode->Info) {
		log_info(L"graphics: no Graphics Output Protocol; the kernel gets no framebuffer");
		return;
	}
	gop_pick_mode(gop);
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
