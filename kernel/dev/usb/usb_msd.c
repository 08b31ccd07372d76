/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * usb_msd.c — USB sticks: a mass storage device found on a port is
 * configured (SET_CONFIGURATION, its bulk endpoints), brought up with SCSI
 * (scsi.c over usb_bot.c over xhci_bulk.c) and offered as block device
 * da<unit> (usb_storage.h). All USB work stays in the USB thread: another
 * thread's read, write or sync is a request it hands over (one at a time
 * per stick) and waits for, at most MSD_REQUEST_WAIT_S; its data passes
 * through a buffer of the stick's own, so a request given up on never
 * touches the caller's memory. A stick pulled out answers FS_EGONE.
 */
#include <dev/usb/xhci_bulk.h>
#include <dev/usb/usb_bot.h>
#include <dev/usb/scsi.h>
#include <fs/blkdev.h>
#include <mm/mm.h>
#include <sync/mutex.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <thread/thread.h>
#include <arch/x86_64/clock/time.h>
#include <dev/usb/usb_storage.h>

#define MSD_REQUEST_WAIT_S 120   /* longer than the worst the USB thread takes for one request */
#define REQ_READ  1
#define REQ_WRITE 2
#define REQ_SYNC  3

struct usb_msd {
	unsigned unit;
	char name[16];                 /* "da0" */
	char driver[20];               /* "storage da0", the `usb` port line */
	struct usb_dev *dev;           /* NULL once removed */
	volatile int present;
	int claimed;                   /* taken by a stick being set up or attached */
	int refs;                      /* usb_storage_get() references (usb_table_lock) */
	struct xhci_bulk bulk;
	struct bot bot;
	struct bot_ops bot_ops;
	struct scsi_disk disk;
	struct blkdev blk;
	/* the request of another thread (m->lock held by it) */
	struct mutex lock;
	int lock_ready;
	uint8_t *bounce;               /* XHCI_BULK_MAX bytes, kept for the slot's life */
	volatile int pending, done;
	int op, rc, wedged;
	uint64_t lba;
	uint32_t count;
	char err[120];
};

static struct usb_msd msds[USB_STORAGE_MAX];

/* bot_ops over the stick's bulk endpoints. USB thread. */
static int msd_bulk(void *ctx, int in, void *buf, uint32_t len, uint32_t *got, uint32_t timeout_ms)
{
	return xhci_bulk_transfer(&((struct usb_msd *)ctx)->bulk, in, buf, len, got, timeout_ms);
}
static int msd_clear_halt(void *ctx, int in)
{
	return xhci_bulk_clear_halt(&((struct usb_msd *)ctx)->bulk, in);
}
static int msd_reset(void *ctx)
{
	return xhci_bulk_class_reset(&((struct usb_msd *)ctx)->bulk);
}

/* Hands a request to the USB thread and waits for its answer; the data
 * moves through m->bounce. Caller thread (not the USB thread). */
static int msd_request(struct usb_msd *m, int op, uint64_t lba, uint32_t count, char *err, size_t len)
{
	if (!m->present) {
		ksnprintf(err, len, "the stick was removed");
		return FS_EGONE;
	}
	if (m->wedged) {
		ksnprintf(err, len, "the USB thread did not finish an earlier request");
		return FS_EIO;
	}
	m->op = op;
	m->lba = lba;
	m->count = count;
	__atomic_store_n(&m->done, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&m->pending, 1, __ATOMIC_RELEASE);
	usb_wake();
	uint64_t deadline = time_ns() + MSD_REQUEST_WAIT_S * 1000000000ull;
	while (!__atomic_load_n(&m->done, __ATOMIC_ACQUIRE)) {
		if (time_ns() > deadline) {
			m->wedged = 1;
			ksnprintf(err, len, "no answer from the USB thread in %u s", MSD_REQUEST_WAIT_S);
			return FS_EIO;
		}
		thread_sleep_ns(1000000);
	}
	if (m->rc)
		ksnprintf(err, len, "%s", m->err);
	return m->rc;
}

/* blkdev read/write: split into transfers the bounce buffer holds. */
static int msd_rw(struct usb_msd *m, int write, uint64_t lba, uint32_t count, uint8_t *buf, char *err,
		  size_t len)
{
	uint32_t bs = m->blk.block_size, per = XHCI_BULK_MAX / bs;
	int rc = 0;
	mutex_lock(&m->lock);
	while (count && !rc) {
		uint32_t n = count < per ? count : per;
		if (write)
			memcpy(m->bounce, buf, (size_t)n * bs);
		rc = msd_request(m, write ? REQ_WRITE : REQ_READ, lba, n, err, len);
		if (!rc && !write)
			memcpy(buf, m->bounce, (size_t)n * bs);
		lba += n;
		count -= n;
		buf += (size_t)n * bs;
	}
	mutex_unlock(&m->lock);
	return rc;
}

static int blk_read(void *ctx, uint64_t lba, uint32_t count, void *buf, char *err, size_t len)
{
	return msd_rw(ctx, 0, lba, count, buf, err, len);
}

static int blk_write(void *ctx, uint64_t lba, uint32_t count, const void *buf, char *err, size_t len)
{
	struct usb_msd *m = ctx;
	if (m->disk.readonly) {
		ksnprintf(err, len, "the stick is write-protected");
		return FS_EROFS;
	}
	return msd_rw(m, 1, lba, count, (uint8_t *)buf, err, len);
}

static int blk_sync(void *ctx, char *err, size_t len)
{
	struct usb_msd *m = ctx;
	mutex_lock(&m->lock);
	int rc = msd_request(m, REQ_SYNC, 0, 0, err, len);
	mutex_unlock(&m->lock);
	return rc;
}

/* See xhci.h. Answers the requests other threads handed over. USB thread. */
void usb_msd_service(void)
{
	for (int i = 0; i < USB_STORAGE_MAX; i++) {
		struct usb_msd *m = &msds[i];
		if (!__atomic_load_n(&m->pending, __ATOMIC_ACQUIRE))
			continue;
		m->pending = 0;
		m->err[0] = 0;
		if (!m->present) {
			m->rc = FS_EGONE;
			ksnprintf(m->err, sizeof(m->err), "the stick was removed");
		} else if (m->op == REQ_SYNC)
			m->rc = scsi_disk_sync(&m->disk, m->err, sizeof(m->err));
		else
			m->rc = scsi_disk_rw(&m->disk, m->op == REQ_WRITE, m->lba, m->count, m->bounce, m->err,
					     sizeof(m->err));
		__atomic_store_n(&m->done, 1, __ATOMIC_RELEASE);
	}
}

/* A free slot (no stick, no reference left), taken; NULL when none. */
static struct usb_msd *slot_take(void)
{
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	struct usb_msd *found = NULL;
	for (int i = 0; i < USB_STORAGE_MAX && !found; i++)
		if (!msds[i].claimed && msds[i].refs == 0 && !msds[i].wedged)
			found = &msds[i];
	if (found)
		found->claimed = 1;
	spin_unlock_irqrestore(&usb_table_lock, flags);
	return found;
}

/* Size in MiB with one decimal, for messages. */
static void mib(uint64_t bytes, char *out, size_t len)
{
	uint64_t tenths = bytes * 10 / (1024 * 1024);
	ksnprintf(out, len, "%lu.%lu MiB", tenths / 10, tenths % 10);
}

/* Sets the stick up in slot m: 0, or a reason. USB thread. */
static const char *msd_start(struct usb_msd *m, struct usb_dev *dev, const struct usb_msd_info *mi,
			     uint8_t config, char *why, size_t len)
{
	if (!m->bounce && !(m->bounce = kmalloc(XHCI_BULK_MAX)))
		return "no memory for its buffer";
	if (!m->lock_ready) {
		mutex_init(&m->lock, "usb stick");
		m->lock_ready = 1;
	}
	if (xhci_control(dev, 0x00, 9, config, 0, 0, NULL) != CC_SUCCESS)
		return "SET_CONFIGURATION failed";
	if (xhci_bulk_setup(dev, mi, &m->bulk))
		return "its bulk endpoints could not be configured";
	m->bot_ops = (struct bot_ops){ m, msd_bulk, msd_clear_halt, msd_reset };
	memset(&m->bot, 0, sizeof(m->bot));
	m->bot.ops = &m->bot_ops;
	memset(&m->disk, 0, sizeof(m->disk));
	m->disk.bot = &m->bot;
	m->disk.sleep_ms = usb_sleep_ms;
	if (scsi_disk_init(&m->disk, why, len)) {
		xhci_bulk_free(&m->bulk);
		return why;
	}
	return NULL;
}

/* See xhci.h. */
const char *usb_msd_probe(struct usb_dev *dev, const uint8_t *config, uint32_t config_len,
			  uint8_t config_value)
{
	static char why[120];
	struct usb_msd_info mi;
	if (usb_parse_msd(config, config_len, &mi, why, sizeof(why))) {
		printk("usb: port %u: mass storage not used: %s\n", dev->port, why);
		dev->driver = "left alone";
		return NULL;
	}
	if (!mi.found) {
		dev->driver = "left alone";
		return NULL;
	}
	struct usb_msd *m = slot_take();
	if (!m) {
		printk("usb: port %u: more than %d sticks; this one is not used\n", dev->port, USB_STORAGE_MAX);
		dev->driver = "left alone";
		return NULL;
	}
	dev->msd = m;                     /* its bulk events reach it from here on */
	const char *fail = msd_start(m, dev, &mi, config_value, why, sizeof(why));
	if (fail) {
		dev->msd = NULL;
		m->claimed = 0;
		printk("usb: port %u: stick not usable: %s\n", dev->port, fail);
		dev->driver = "storage, failed";
		return NULL;
	}
	m->unit = (unsigned)(m - msds);
	ksnprintf(m->name, sizeof(m->name), "da%u", m->unit);
	ksnprintf(m->driver, sizeof(m->driver), "storage %s", m->name);
	m->blk = (struct blkdev){ .block_size = m->disk.block_size, .blocks = m->disk.blocks,
				  .readonly = m->disk.readonly, .ctx = m, .read = blk_read, .write = blk_write,
				  .sync = blk_sync };
	memcpy(m->blk.name, m->name, sizeof(m->blk.name));
	m->wedged = 0;
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	m->dev = dev;
	__atomic_store_n(&m->present, 1, __ATOMIC_RELEASE);
	spin_unlock_irqrestore(&usb_table_lock, flags);
	dev->driver = m->driver;
	char size[24];
	mib(m->disk.blocks * m->disk.block_size, size, sizeof(size));
	printk("usb: %s: %s %s %s, %s (%lu blocks of %u bytes), %s\n", m->name, m->disk.vendor,
	       m->disk.product, m->disk.revision, size, m->disk.blocks, m->disk.block_size,
	       m->disk.readonly ? "write-protected" : "writable");
	return NULL;
}

/* See xhci.h. */
int usb_msd_event(struct usb_msd *m, unsigned dci, uint64_t trb, uint32_t cc, uint32_t residual)
{
	if (dci != m->bulk.in.dci && dci != m->bulk.out.dci)
		return 0;
	xhci_bulk_event(&m->bulk, dci, trb, cc, residual);
	return 1;
}

/* See xhci.h. After the slot was disabled: the stick is gone for every
 * holder of its block device; its endpoints' memory is freed. */
void usb_msd_detach(struct usb_msd *m)
{
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	__atomic_store_n(&m->present, 0, __ATOMIC_RELEASE);
	m->dev->msd = NULL;
	m->dev = NULL;
	m->claimed = 0;
	spin_unlock_irqrestore(&usb_table_lock, flags);
	xhci_bulk_free(&m->bulk);
	printk("usb: %s: removed\n", m->name);
}

/* See usb_storage.h. */
struct blkdev *usb_storage_get(unsigned unit)
{
	struct blkdev *b = NULL;
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	if (unit < USB_STORAGE_MAX && msds[unit].present) {
		msds[unit].refs++;
		b = &msds[unit].blk;
	}
	spin_unlock_irqrestore(&usb_table_lock, flags);
	return b;
}

/* See usb_storage.h. */
void usb_storage_put(struct blkdev *b)
{
	if (!b)
		return;
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	((struct usb_msd *)b->ctx)->refs--;
	spin_unlock_irqrestore(&usb_table_lock, flags);
}

/* See usb_storage.h. */
void usb_storage_describe(const struct blkdev *b, char *out, size_t len)
{
	const struct usb_msd *m = b->ctx;
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	if (m->present)
		ksnprintf(out, len, "%s %s, port %u", m->disk.vendor, m->disk.product, m->dev->port);
	else if (len)
		out[0] = 0;
	spin_unlock_irqrestore(&usb_table_lock, flags);
}

/* See xhci.h. The sticks' lines of the `usb` command. */
void usb_msd_print(void)
{
	uint64_t flags = spin_lock_irqsave(&usb_table_lock);
	for (int i = 0; i < USB_STORAGE_MAX; i++) {
		const struct usb_msd *m = &msds[i];
		if (!m->present)
			continue;
		char size[24];
		mib(m->disk.blocks * m->disk.block_size, size, sizeof(size));
		printk("%s: port %u, %s %s %s%s, %s (%lu blocks of %u bytes), %s; %lu reads, %lu writes, "
		       "%lu retries, %lu failures, %lu stalls, %lu resets, %lu timeouts\n", m->name, m->dev->port,
		       m->disk.vendor, m->disk.product, m->disk.revision, m->disk.removable ? " (removable)" : "",
		       size, m->disk.blocks, m->disk.block_size, m->disk.readonly ? "write-protected" : "writable",
		       m->disk.reads, m->disk.writes, m->disk.retries, m->disk.failures, m->bot.stalls,
		       m->bot.recoveries, m->bulk.timeouts);
	}
	spin_unlock_irqrestore(&usb_table_lock, flags);
}
