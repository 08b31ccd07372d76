/* SPDX-License-Identifier: BSD-2-Clause */
/* Host tests of the USB descriptor parsers (kernel/dev/usb/usb_desc.c):
 * a boot keyboard's and a USB stick's configurations as devices send
 * them, and broken ones, each refused with a reason. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <dev/usb/usb_desc.h>

/* A keyboard: configuration, interface 3/1/1, HID descriptor, EP 0x81. */
static const uint8_t kbd_config[] = {
	9, 2, 34, 0, 1, 1, 0, 0xA0, 50,
	9, 4, 0, 0, 1, 3, 1, 1, 0,
	9, 0x21, 0x11, 0x01, 0, 1, 0x22, 63, 0,
	7, 5, 0x81, 3, 8, 0, 10,
};

/* A stick: interface 8/6/0x50 with two bulk endpoints. */
static const uint8_t stick_config[] = {
	9, 2, 32, 0, 1, 1, 0, 0x80, 50,
	9, 4, 0, 0, 2, 8, 6, 0x50, 0,
	7, 5, 0x81, 2, 0, 2, 0,
	7, 5, 0x02, 2, 0, 2, 0,
};

static const uint8_t kbd_device[] = {
	18, 1, 0x00, 0x02, 0, 0, 0, 64, 0x27, 0x06, 0x01, 0x00, 0, 0, 1, 2, 3, 1,
};

static void test_keyboard_configuration(void **state)
{
	(void)state;
	struct usb_config_info ci;
	char err[128];
	assert_int_equal(usb_parse_config_len(kbd_config, 9, err, sizeof(err)), sizeof(kbd_config));
	assert_int_equal(usb_parse_config(kbd_config, sizeof(kbd_config), &ci, err, sizeof(err)), 0);
	assert_true(ci.keyboard);
	assert_int_equal(ci.config_value, 1);
	assert_int_equal(ci.kbd_interface, 0);
	assert_int_equal(ci.kbd_endpoint, 0x81);
	assert_int_equal(ci.kbd_max_packet, 8);
	assert_int_equal(ci.kbd_interval, 10);
	assert_int_equal(ci.first_class, 3);
}

static void test_stick_is_not_a_keyboard(void **state)
{
	(void)state;
	struct usb_config_info ci;
	char err[128];
	assert_int_equal(usb_parse_config(stick_config, sizeof(stick_config), &ci, err, sizeof(err)), 0);
	assert_false(ci.keyboard);
	assert_int_equal(ci.first_class, 8);
}

/* Parse a modified copy of the keyboard configuration; return the result
 * and leave the message in err. */
static int parse_modified(size_t at, uint8_t value, size_t len, char *err, size_t err_len)
{
	uint8_t b[sizeof(kbd_config)];
	struct usb_config_info ci;
	memcpy(b, kbd_config, sizeof(b));
	if (at < sizeof(b))
		b[at] = value;
	memset(&ci, 0xAA, sizeof(ci));
	int r = usb_parse_config(b, len, &ci, err, err_len);
	return r;
}

static void test_broken_configurations_are_refused(void **state)
{
	(void)state;
	char err[128];
	/* fewer bytes than wTotalLength */
	assert_int_equal(parse_modified(99, 0, sizeof(kbd_config) - 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "wTotalLength 34 but 33 bytes read"));
	/* a descriptor of length 0 (would loop) and one past the end */
	assert_int_equal(parse_modified(18, 0, sizeof(kbd_config), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "offset 18"));
	assert_int_equal(parse_modified(27, 9, sizeof(kbd_config), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "offset 27"));
	/* a short interface descriptor */
	assert_int_equal(parse_modified(9, 5, sizeof(kbd_config), err, sizeof(err)), -1);
	/* the keyboard's endpoint: number 0, packet size 0, interval 0 */
	assert_int_equal(parse_modified(29, 0x80, sizeof(kbd_config), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "endpoint 0"));
	assert_int_equal(parse_modified(31, 0, sizeof(kbd_config), err, sizeof(err)), -1);
	assert_int_equal(parse_modified(33, 0, sizeof(kbd_config), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "interval 0"));
	/* wTotalLength beyond what we read at most, or below the header */
	assert_int_equal(parse_modified(3, 0x10, sizeof(kbd_config), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "outside 9..1024"));
	assert_int_equal(parse_modified(2, 4, sizeof(kbd_config), err, sizeof(err)), -1);
	/* not a configuration at all */
	assert_int_equal(parse_modified(1, 1, sizeof(kbd_config), err, sizeof(err)), -1);
	assert_int_equal(usb_parse_config_len(kbd_config, 8, err, sizeof(err)), 0);
}

static void test_interface_alternate_and_out_endpoints_ignored(void **state)
{
	(void)state;
	uint8_t b[sizeof(kbd_config)];
	struct usb_config_info ci;
	char err[128];
	memcpy(b, kbd_config, sizeof(b));
	b[29] = 0x01;                /* an OUT endpoint: not the report endpoint */
	assert_int_equal(usb_parse_config(b, sizeof(b), &ci, err, sizeof(err)), 0);
	assert_false(ci.keyboard);
	memcpy(b, kbd_config, sizeof(b));
	b[12] = 1;                   /* alternate setting 1 */
	assert_int_equal(usb_parse_config(b, sizeof(b), &ci, err, sizeof(err)), 0);
	assert_false(ci.keyboard);
}

static void test_device_descriptor(void **state)
{
	(void)state;
	struct usb_device_desc d;
	char err[128];
	assert_int_equal(usb_parse_device(kbd_device, sizeof(kbd_device), USB_SPEED_HIGH, &d, err,
					  sizeof(err)), 0);
	assert_int_equal(d.vendor, 0x0627);
	assert_int_equal(d.product, 0x0001);
	assert_int_equal(d.max_packet0, 64);
	assert_int_equal(d.num_configs, 1);
	/* low speed allows 8 only; super speed wants the exponent 9 */
	assert_int_equal(usb_parse_max_packet0(kbd_device, 8, USB_SPEED_LOW, err, sizeof(err)), 0);
	uint8_t ss[18];
	memcpy(ss, kbd_device, sizeof(ss));
	ss[7] = 9;
	assert_int_equal(usb_parse_max_packet0(ss, 8, USB_SPEED_SUPER, err, sizeof(err)), 512);
	assert_int_equal(usb_parse_max_packet0(ss, 8, USB_SPEED_FULL, err, sizeof(err)), 0);
	assert_int_equal(usb_parse_max_packet0(ss, 7, USB_SPEED_SUPER, err, sizeof(err)), 0);
	/* short, wrong type, no configuration */
	assert_int_equal(usb_parse_device(kbd_device, 17, USB_SPEED_HIGH, &d, err, sizeof(err)), -1);
	memcpy(ss, kbd_device, sizeof(ss));
	ss[1] = 2;
	assert_int_equal(usb_parse_device(ss, 18, USB_SPEED_HIGH, &d, err, sizeof(err)), -1);
	memcpy(ss, kbd_device, sizeof(ss));
	ss[17] = 0;
	assert_int_equal(usb_parse_device(ss, 18, USB_SPEED_HIGH, &d, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no configurations"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keyboard_configuration),
		cmocka_unit_test(test_stick_is_not_a_keyboard),
		cmocka_unit_test(test_broken_configurations_are_refused),
		cmocka_unit_test(test_interface_alternate_and_out_endpoints_ignored),
		cmocka_unit_test(test_device_descriptor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
