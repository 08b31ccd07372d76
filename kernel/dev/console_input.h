/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * console_input.h — where shell input comes from: device interrupt
 * handlers (serial, PS/2 and USB keyboards) push bytes into one ring; the
 * shell and a foreground user program pull (kernel/dev/console_input.c).
 * The pushing side is declared in kernel/arch/x86_64/arch_hooks.h too, for
 * the serial port.
 */
#ifndef MOSAIC_CONSOLE_INPUT_H
#define MOSAIC_CONSOLE_INPUT_H

/* Queue one input byte. Called from interrupt handlers; 1 if queued, 0
 * when the ring is full: the byte is dropped and counted
 * (kern.console.input_lost). Keyboards push ANSI escape sequences for
 * arrow keys, like a terminal. */
int console_input_push(char c);
/* A keyboard's key as keymap_feed() decoded it (its result n and the
 * bytes in out): Shift-Page Up/Down move the framebuffer console's view
 * through its scrollback; a key that gives bytes brings the view back to
 * the live screen and queues them. Interrupts off. */
void console_input_key(int n, const char *out);
/* Room left in the input ring (interrupts off). A source that can hold
 * its bytes (the UART's FIFO) takes no more than this, and asks
 * console_input_on_room() to be called back once the reader frees room. */
unsigned console_input_room(void);
/* fn runs once, the next time the reader takes a byte, or at once if
 * there is room already (interrupts off, the input lock held: it must not
 * push; it re-arms its source's interrupt, which then delivers). One
 * held-back source at a time. */
void console_input_on_room(void (*fn)(void));
/* Next input byte; sleeps on a wait queue (before the scheduler: hlt)
 * until one arrives. Interrupts must be on. */
char console_getc(void);
/* The next input byte without taking it: 1 and *c set, else 0. Never
 * sleeps. (The shell and a foreground user program share the input: each
 * looks before it takes; SYS_CONSOLE_READ never takes a Ctrl-C.) */
int console_peekc(char *c);
/* Next input byte if one is waiting: 1 and *c set, else 0. Never sleeps. */
int console_trygetc(char *c);

#endif
