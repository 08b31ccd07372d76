/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the Thread Director class history's hysteresis
 * (kernel/lib/itd_hist.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <lib/itd_hist.h>

/* Feeds n valid reads of cls; returns how many of them adopted a class. */
static int feed(struct itd_hist *h, unsigned cls, int n)
{
	int adopted = 0;
	for (int i = 0; i < n; i++)
		adopted += itd_hist_feed(h, cls);
	return adopted;
}

/* A new class is adopted on the ITD_HIST_AGREE-th consecutive read, once. */
static void test_adopt_after_agreeing_reads(void **state)
{
	(void)state;
	struct itd_hist h;
	memset(&h, 0, sizeof(h));
	assert_int_equal(h.cls, ITD_SCALAR);
	assert_int_equal(feed(&h, ITD_VECTOR, ITD_HIST_AGREE - 1), 0);
	assert_int_equal(h.cls, ITD_SCALAR);
	assert_int_equal(itd_hist_feed(&h, ITD_VECTOR), 1);
	assert_int_equal(h.cls, ITD_VECTOR);
	assert_int_equal(feed(&h, ITD_VECTOR, 10), 0);   /* no re-adoption */
	assert_int_equal(h.reads[ITD_VECTOR], ITD_HIST_AGREE + 10);
	assert_int_equal(h.changes, 1);
	/* back to scalar takes ITD_HIST_AGREE reads as well */
	assert_int_equal(feed(&h, ITD_SCALAR, ITD_HIST_AGREE), 1);
	assert_int_equal(h.cls, ITD_SCALAR);
	assert_int_equal(h.changes, 2);
}

/* Reads that flicker never reach the count; invalid reads neither count
 * nor break a run. */
static void test_flicker_and_invalid(void **state)
{
	(void)state;
	struct itd_hist h;
	memset(&h, 0, sizeof(h));
	for (int i = 0; i < 20; i++) {
		assert_int_equal(feed(&h, ITD_VECTOR, ITD_HIST_AGREE - 1), 0);
		assert_int_equal(itd_hist_feed(&h, ITD_SPIN), 0);
	}
	assert_int_equal(h.cls, ITD_SCALAR);
	assert_int_equal(h.changes, 0);
	/* a scalar read between vector ones restarts the run: 3 + 1 + 3 */
	feed(&h, ITD_VECTOR, 3);
	itd_hist_feed(&h, ITD_SCALAR);
	assert_int_equal(feed(&h, ITD_VECTOR, 3), 0);
	/* invalid reads in between do not break it */
	itd_hist_invalid(&h);
	itd_hist_invalid(&h);
	assert_int_equal(itd_hist_feed(&h, ITD_VECTOR), 1);
	assert_int_equal(h.invalid, 2);
	/* a class beyond the table of classes is an invalid read */
	assert_int_equal(itd_hist_feed(&h, ITD_CLASS_MAX), 0);
	assert_int_equal(h.invalid, 3);
	assert_int_equal(h.cls, ITD_VECTOR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adopt_after_agreeing_reads),
		cmocka_unit_test(test_flicker_and_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
