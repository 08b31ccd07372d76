/* cmdline.c — parsing of `key=value` words with quoting. Portable C. */
#include <cmdline.h>
#include <printk.h>
#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Copy one (possibly quoted) token from *src into out, stopping at '=' when
 * stop_at_equals, or at unquoted whitespace. Returns -1 on an unterminated
 * quote or overflow. */
static int take_token(const char **src, char *out, size_t room, size_t *used,
		      int stop_at_equals, char *err, size_t err_len)
{
	const char *s = *src;
	size_t n = 0;
	while (*s && !is_space(*s) && !(stop_at_equals && *s == '=')) {
		if (*s == '"' || *s == '\'') {
			char q = *s++;
			while (*s && *s != q) {
				if (q == '"' && *s == '\\' && (s[1] == '"' || s[1] == '\\'))
					s++;
				if (n + 1 >= room) {
					ksnprintf(err, err_len, "command line too long");
					return -1;
				}
				out[n++] = *s++;
			}
			if (*s != q) {
				ksnprintf(err, err_len, "unterminated %c quote", q);
				return -1;
			}
			s++;
			continue;
		}
		if (n + 1 >= room) {
			ksnprintf(err, err_len, "command line too long");
			return -1;
		}
		out[n++] = *s++;
	}
	out[n] = 0;
	*used = n + 1;
	*src = s;
	return 0;
}

int cmdline_parse(struct cmdline *cl, const char *text, char *err, size_t err_len)
{
	size_t pos = 0;
	cl->count = 0;
	if (err_len)
		err[0] = 0;
	const char *s = text ? text : "";
	for (;;) {
		while (is_space(*s))
			s++;
		if (!*s)
			return 0;
		if (cl->count == CMDLINE_MAX_ARGS) {
			ksnprintf(err, err_len, "more than %d words", CMDLINE_MAX_ARGS);
			return -1;
		}
		size_t used;
		char *key = cl->storage + pos;
		if (take_token(&s, key, sizeof(cl->storage) - pos, &used, 1, err, err_len))
			return -1;
		pos += used;
		char *value = cl->storage + pos;
		if (*s == '=') {
			s++;
			if (take_token(&s, value, sizeof(cl->storage) - pos, &used, 0, err, err_len))
				return -1;
			pos += used;
		} else {
			if (pos >= sizeof(cl->storage)) {
				ksnprintf(err, err_len, "command line too long");
				return -1;
			}
			value[0] = 0;
			pos++;
		}
		if (!key[0]) {
			ksnprintf(err, err_len, "word with an empty key");
			return -1;
		}
		cl->keys[cl->count] = key;
		cl->values[cl->count] = value;
		cl->count++;
	}
}

const char *cmdline_lookup(const struct cmdline *cl, const char *key)
{
	for (int i = cl->count - 1; i >= 0; i--)
		if (strcmp(cl->keys[i], key) == 0)
			return cl->values[i];
	return NULL;
}

static struct cmdline kernel_cmdline;
static char kernel_cmdline_text[CMDLINE_MAX_LEN];

void cmdline_init(const char *text)
{
	char err[80];
	size_t n = strnlen(text, sizeof(kernel_cmdline_text) - 1);
	memcpy(kernel_cmdline_text, text, n);
	kernel_cmdline_text[n] = 0;
	if (cmdline_parse(&kernel_cmdline, kernel_cmdline_text, err, sizeof(err)))
		printk("cmdline: %s; ignoring the rest\n", err);
}

const char *cmdline_get(const char *key)
{
	return cmdline_lookup(&kernel_cmdline, key);
}

const char *cmdline_text(void)
{
	return kernel_cmdline_text;
}
