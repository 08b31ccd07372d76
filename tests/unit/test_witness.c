/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests for spinlock lock-order checking (kernel/arch/x86_64/witness.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <kern/panic.h>
#include <tests/unit/panic_hook.h>
#include <arch/x86_64/spinlock.h>
#include <arch/x86_64/witness.h>

static unsigned this_cpu;
unsigned cpu_current(void)
{
	return this_cpu;
}

static struct spinlock heap = SPINLOCK_INIT("heap"), pmm = SPINLOCK_INIT("pmm"),
	tdq0 = SPINLOCK_INIT("tdq"), tdq1 = SPINLOCK_INIT("tdq"), waitq = SPINLOCK_INIT("waitq");

static int enable(void **state)
{
	(void)state;
	witness_enabled = 1;
	this_cpu = 0;
	return 0;
}

static void test_consistent_order_is_quiet(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++) {
		witness_acquire(&heap);
		witness_acquire(&pmm);
		witness_release(&pmm);
		witness_release(&heap);
	}
	witness_acquire(&pmm);      /* alone: no order implied */
	witness_release(&pmm);
	assert_int_equal(witness_enabled, 1);
}

static void test_reversal_panics_naming_both(void **state)
{
	(void)state;
	witness_acquire(&heap);
	witness_acquire(&pmm);
	witness_release(&pmm);
	witness_release(&heap);
	witness_acquire(&pmm);
	EXPECT_PANIC(witness_acquire(&heap), "lock order reversal: 'heap' taken while holding 'pmm'");
	assert_int_equal(witness_enabled, 0);   /* off, so the panic path can lock */
}

static void test_same_class_nests(void **state)
{
	(void)state;
	witness_acquire(&tdq0);
	witness_acquire(&tdq1);
	witness_release(&tdq0);     /* out of order release */
	witness_release(&tdq1);
	witness_acquire(&tdq1);
	witness_acquire(&tdq0);
	witness_release(&tdq0);
	witness_release(&tdq1);
	assert_int_equal(witness_enabled, 1);
}

static void test_orders_are_per_cpu_stacks(void **state)
{
	(void)state;
	this_cpu = 1;
	witness_acquire(&waitq);
	this_cpu = 2;
	witness_acquire(&tdq0);     /* cpu 2 holds nothing else: no waitq->tdq edge */
	witness_release(&tdq0);
	this_cpu = 1;
	witness_release(&waitq);
	this_cpu = 2;
	witness_acquire(&tdq0);
	witness_acquire(&waitq);    /* tdq -> waitq: fine, the opposite was never seen */
	witness_release(&waitq);
	witness_release(&tdq0);
	assert_int_equal(witness_enabled, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_consistent_order_is_quiet, enable),
		cmocka_unit_test_setup(test_reversal_panics_naming_both, enable),
		cmocka_unit_test_setup(test_same_class_nests, enable),
		cmocka_unit_test_setup(test_orders_are_per_cpu_stacks, enable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
