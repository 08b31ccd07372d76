/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ipc.c — synchronous message passing in the L4/seL4 tradition
 * (docs/userland.md, "IPC").
 *
 * An endpoint has no buffer: a message moves only when a sender and a
 * receiver meet. Whoever comes first waits on the endpoint (senders and
 * receivers in FIFO order); the second copies the message across and wakes
 * the first through thread_unblock(), the scheduler's normal wake-up path
 * (so ULE's interactivity scoring sees every IPC sleep). A call is a send
 * whose sender then waits for the reply: the receiving thread holds the
 * caller (one at a time, like seL4's reply capability) until it replies,
 * receives again, or leaves, and the caller fails with ERR_DEAD in the last
 * two cases. The message is a label and four words in registers plus an
 * optional buffer of up to IPC_BUF_MAX bytes, copied in from the sender
 * before anything is locked and out to the receiver after, in each one's
 * own address space (never across address spaces). Every wait has a
 * timeout and ends when the endpoint dies (ERR_DEAD) or the waiter's
 * process is killed.
 */
#include <user/uproc.h>
#include <user/ucheck.h>
#include <mm/mm.h>

struct ipc_msgk {
	uint64_t label, w[4];
	void *buf;                       /* kmalloc'ed, owned by whoever holds the message */
	uint64_t len;
	uint64_t badge;                  /* sender: pid << 32 | tid; a reply: 0 */
};

enum { IW_QUEUED = 0, IW_REPLY_WAIT, IW_DONE };

/* A thread inside an IPC call, on its kernel stack. */
struct ipc_wait {
	struct uwait w;                  /* queued on an endpoint's senders or receivers */
	struct uthread *ut;
	struct ipc_msgk msg;             /* sender: what it sends; then what it receives */
	uint64_t rcap;                   /* room in its receive buffer */
	int is_call;
	int phase;                       /* IW_* */
	int status;                      /* the result, once IW_DONE */
	int got_reply;                   /* a call: msg now holds the reply */
	struct uthread *replier;         /* IW_REPLY_WAIT: the thread that owes the reply */
};

/* The message of the registers (label, words) and the buffer (R12, R13),
 * the buffer copied into kernel memory: 0 or ERR_TOOBIG, ERR_FAULT,
 * ERR_NOMEM. */
static int ipc_stage(const struct trap_frame *tf, struct ipc_msgk *m)
{
	*m = (struct ipc_msgk){ .label = tf->rsi, .w = { tf->rdx, tf->r10, tf->r8, tf->r9 },
				.len = tf->r13 };
	if (m->len == 0)
		return 0;
	if (m->len > IPC_BUF_MAX)
		return ERR_TOOBIG;
	if (ucheck_range(tf->r12, m->len))
		return ERR_FAULT;
	if (!(m->buf = kmalloc(m->len)))
		return ERR_NOMEM;
	if (copy_from_user(m->buf, tf->r12, m->len)) {
		kfree(m->buf);
		m->buf = NULL;
		return ERR_FAULT;
	}
	return 0;
}

/* The receive buffer of the registers (R14, R15): its usable capacity in
 * *cap (at most IPC_BUF_MAX), 0 or ERR_FAULT. */
static int ipc_rbuf(const struct trap_frame *tf, uint64_t *cap)
{
	*cap = tf->r15 < IPC_BUF_MAX ? tf->r15 : IPC_BUF_MAX;
	return *cap && ucheck_range(tf->r14, *cap) ? ERR_FAULT : 0;
}

/* Hands the message from to the waiter to: moved whole, or with
 * ERR_MSGSIZE only the registers and the length when the buffer does not
 * fit (from keeps its buffer). Returns the status for both. user_lock. */
static int ipc_transfer(struct ipc_msgk *from, struct ipc_wait *to)
{
	to->msg = *from;
	if (from->len > to->rcap) {
		to->msg.buf = NULL;
		return ERR_MSGSIZE;
	}
	from->buf = NULL;
	return 0;
}

/* Ends a waiter's wait with status. user_lock. */
static void ipc_finish(struct ipc_wait *iw, int status)
{
	iw->phase = IW_DONE;
	iw->status = status;
	uwait_wake(&iw->w);
}

/* A waiting sender S was matched with the receiving thread r (which got
 * S's message with status rc): a call whose message arrived now waits for
 * r's reply; anything else is done. user_lock. */
static void ipc_matched(struct ipc_wait *s, struct uthread *r, int rc)
{
	if (rc == 0 && s->is_call) {
		s->phase = IW_REPLY_WAIT;
		s->replier = r;
		r->reply_to = s;
		r->reply_lost = 0;
		return;
	}
	ipc_finish(s, rc);
}

/* The caller r holds dies with ERR_DEAD (r did not reply). user_lock. */
static void ipc_drop_reply(struct uthread *r)
{
	if (r->reply_to)
		ipc_finish(r->reply_to, ERR_DEAD);
	r->reply_to = NULL;
	r->reply_lost = 0;
}

/* See uproc.h. */
void ipc_thread_gone(struct uthread *ut)
{
	ipc_drop_reply(ut);
}

/* Sleeps until me is done, the endpoint dies, the deadline passes or the
 * process is killed; me holds a reference to ep meanwhile. user_lock. */
static void ipc_wait_done(struct ipc_wait *me, struct endpoint *ep, struct uchan *queue,
			  uint64_t deadline)
{
	while (me->phase != IW_DONE) {
		int r = uwait_sleep(me->phase == IW_QUEUED ? queue : NULL, &me->w, deadline);
		if (me->phase == IW_DONE)
			break;
		if (me->phase == IW_QUEUED && ep->dead) {
			me->phase = IW_DONE;
			me->status = ERR_DEAD;
		} else if (r == UW_TIMEOUT || r == UW_KILLED) {
			if (me->phase == IW_REPLY_WAIT && me->replier->reply_to == me) {
				me->replier->reply_to = NULL;
				me->replier->reply_lost = 1;
			}
			me->phase = IW_DONE;
			me->status = r == UW_TIMEOUT ? ERR_TIMEOUT : ERR_DEAD;
		}
	}
}

/* Writes a received message into the registers and its buffer into the
 * receive buffer: RAX's value (status, or ERR_FAULT if the buffer cannot
 * be written). Frees the kernel copy. */
static int64_t ipc_deliver(struct trap_frame *tf, struct ipc_msgk *m, int status)
{
	if (status == 0 || status == ERR_MSGSIZE) {
		tf->rsi = m->label;
		tf->rdx = m->w[0];
		tf->r10 = m->w[1];
		tf->r8 = m->w[2];
		tf->r9 = m->w[3];
		tf->r13 = m->len;
		tf->rdi = m->badge;
	}
	if (status == 0 && m->len && copy_to_user(tf->r14, m->buf, m->len))
		status = ERR_FAULT;
	kfree(m->buf);
	m->buf = NULL;
	return status;
}

/* SYS_IPC_SEND and SYS_IPC_CALL. */
static int64_t ipc_send_common(struct trap_frame *tf, int is_call)
{
	struct uthread *self = uthread_self();
	struct ipc_wait me = { .ut = self, .is_call = is_call };
	uint64_t timeout = tf->rbx;
	int rc = ucheck_timeout(timeout);
	if (!rc && is_call)
		rc = ipc_rbuf(tf, &me.rcap);
	if (!rc)
		rc = ipc_stage(tf, &me.msg);
	if (rc)
		return rc;
	me.msg.badge = (uint64_t)self->proc->pid << 32 | self->tid;
	uint64_t deadline = uwait_deadline(timeout);
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct endpoint *ep = handle_get(self->proc, (int64_t)tf->rdi, HANDLE_SEND);
	struct uwait *rw = ep && !ep->dead ? uchan_pop(&ep->receivers) : NULL;
	if (!ep) {
		rc = ERR_BADH;
	} else if (ep->dead) {
		rc = ERR_DEAD;
	} else if (rw) {
		struct ipc_wait *r = (struct ipc_wait *)rw;
		rc = ipc_transfer(&me.msg, r);
		ipc_finish(r, rc);
		if (rc == 0 && is_call) {
			me.phase = IW_REPLY_WAIT;
			me.replier = r->ut;
			r->ut->reply_to = &me;
			r->ut->reply_lost = 0;
		}
	} else if (timeout == 0) {
		rc = ERR_TIMEOUT;
	} else {
		me.phase = IW_QUEUED;
	}
	if (!rc && (!rw || is_call)) {
		ep->refs++;
		ipc_wait_done(&me, ep, &ep->senders, deadline);
		endpoint_put(ep);
		rc = me.status;
	}
	spin_unlock_irqrestore(&user_lock, flags);
	if (me.got_reply)
		return ipc_deliver(tf, &me.msg, rc);
	kfree(me.msg.buf);   /* not delivered, or NULL */
	return rc;
}

/* SYS_IPC_SEND: RDI handle (send right), the message; RBX timeout. */
int64_t sys_ipc_send(struct trap_frame *tf)
{
	return ipc_send_common(tf, 0);
}

/* SYS_IPC_CALL: as SYS_IPC_SEND, then the reply arrives as a receive
 * does (R14, R15 the buffer for it); the timeout covers both. */
int64_t sys_ipc_call(struct trap_frame *tf)
{
	return ipc_send_common(tf, 1);
}

/* The reply half: the message of the registers to the caller this thread
 * holds. 0, ERR_NOREPLY (none), ERR_DEAD (it gave up or was killed),
 * ERR_MSGSIZE (its buffer is too small: it gets the registers and the
 * error), or a staging error. */
static int ipc_reply_part(struct trap_frame *tf, struct uthread *self)
{
	struct ipc_msgk m;
	int rc = ipc_stage(tf, &m);
	if (rc)
		return rc;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct ipc_wait *c = self->reply_to;
	if (!c) {
		rc = self->reply_lost ? ERR_DEAD : ERR_NOREPLY;
		self->reply_lost = 0;
	} else {
		self->reply_to = NULL;
		rc = ipc_transfer(&m, c);
		c->got_reply = 1;
		ipc_finish(c, rc);
	}
	spin_unlock_irqrestore(&user_lock, flags);
	kfree(m.buf);
	return rc;
}

/* The receive half: the next message of RDI's endpoint (receive right)
 * into the registers and R14's buffer. A call's sender then waits for this
 * thread's reply; a call still held from before fails with ERR_DEAD. */
static int64_t ipc_recv_part(struct trap_frame *tf, struct uthread *self)
{
	struct ipc_wait me = { .ut = self };
	uint64_t timeout = tf->rbx;
	int rc = ucheck_timeout(timeout);
	if (!rc)
		rc = ipc_rbuf(tf, &me.rcap);
	if (rc)
		return rc;
	uint64_t deadline = uwait_deadline(timeout);
	uint64_t flags = spin_lock_irqsave(&user_lock);
	struct endpoint *ep = handle_get(self->proc, (int64_t)tf->rdi, HANDLE_RECV);
	if (ep)
		ipc_drop_reply(self);
	struct uwait *sw = ep && !ep->dead ? uchan_pop(&ep->senders) : NULL;
	if (!ep) {
		rc = ERR_BADH;
	} else if (ep->dead) {
		rc = ERR_DEAD;
	} else if (sw) {
		struct ipc_wait *s = (struct ipc_wait *)sw;
		rc = ipc_transfer(&s->msg, &me);
		ipc_matched(s, self, rc);
	} else if (timeout == 0) {
		rc = ERR_TIMEOUT;
	} else {
		ep->refs++;
		ipc_wait_done(&me, ep, &ep->receivers, deadline);
		endpoint_put(ep);
		rc = me.status;
	}
	spin_unlock_irqrestore(&user_lock, flags);
	if (rc == 0 || rc == ERR_MSGSIZE)
		return ipc_deliver(tf, &me.msg, rc);
	return rc;
}

/* SYS_IPC_RECV: RDI handle (receive right), R14/R15 the buffer, RBX the
 * timeout; out: the message, RDI the sender's badge, R13 its length. */
int64_t sys_ipc_recv(struct trap_frame *tf)
{
	return ipc_recv_part(tf, uthread_self());
}

/* SYS_IPC_REPLY: the message of the registers to the held caller. */
int64_t sys_ipc_reply(struct trap_frame *tf)
{
	return ipc_reply_part(tf, uthread_self());
}

/* SYS_IPC_REPLY_RECV: reply if a call is held (a failed reply is returned
 * and nothing is received), then receive. */
int64_t sys_ipc_reply_recv(struct trap_frame *tf)
{
	struct uthread *self = uthread_self();
	uint64_t flags = spin_lock_irqsave(&user_lock);
	int owes = self->reply_to || self->reply_lost;
	spin_unlock_irqrestore(&user_lock, flags);
	if (owes) {
		int rc = ipc_reply_part(tf, self);
		if (rc)
			return rc;
	}
	return ipc_recv_part(tf, self);
}

/* SYS_EP_CREATE: a new endpoint, charged to the caller; a handle with
 * both rights. */
int64_t sys_ep_create(struct trap_frame *tf)
{
	(void)tf;
	struct endpoint *ep = endpoint_alloc();
	if (!ep)
		return ERR_NOMEM;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	int adopted = endpoint_adopt(ep, proc_self()), h = adopted;
	if (adopted == 0) {
		h = handle_install(proc_self(), ep, HANDLE_SEND | HANDLE_RECV);
		endpoint_put(ep);   /* the handle's reference remains, if any */
	}
	spin_unlock_irqrestore(&user_lock, flags);
	if (adopted)   /* refused before it was anyone's */
		kfree(ep);
	return h;
}

/* SYS_HANDLE_CLOSE(h). */
int64_t sys_handle_close(struct trap_frame *tf)
{
	uint64_t flags = spin_lock_irqsave(&user_lock);
	int rc = handle_close(proc_self(), (int64_t)tf->rdi);
	spin_unlock_irqrestore(&user_lock, flags);
	return rc;
}
