/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* A JSON document written a piece at a time, so that a big one never sits in memory. */
#include "json_stream.h"

#define FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

void json_stream_init(struct json_stream *stream, FILE *out)
{
	*stream = (struct json_stream){.out = out};
}

/* What comes before a value: a comma after an earlier one, then the key when it has one. */
static void separate(struct json_stream *stream, const char *key)
{
	if (stream->need_comma[stream->depth])
		fputc(',', stream->out);
	stream->need_comma[stream->depth] = true;
	if (key) {
		json_object *name = json_object_new_string(key);

		fputs(json_object_to_json_string_ext(name, FLAGS), stream->out);
		fputc(':', stream->out);
		json_object_put(name);
	}
}

static void open_container(struct json_stream *stream, const char *key, char opening, char closing)
{
	separate(stream, key);
	fputc(opening, stream->out);
	stream->depth++;
	stream->need_comma[stream->depth] = false;
	stream->closing[stream->depth] = closing;
}

void json_stream_open_object(struct json_stream *stream, const char *key)
{
	open_container(stream, key, '{', '}');
}

void json_stream_open_array(struct json_stream *stream, const char *key)
{
	open_container(stream, key, '[', ']');
}

void json_stream_value(struct json_stream *stream, const char *key, json_object *value)
{
	separate(stream, key);
	fputs(json_object_to_json_string_ext(value, FLAGS), stream->out);
	json_object_put(value);
}

void json_stream_members(struct json_stream *stream, json_object *object)
{
	json_object_object_foreach(object, key, value)
	{
		separate(stream, key);
		fputs(json_object_to_json_string_ext(value, FLAGS), stream->out);
	}
	json_object_put(object);
}

void json_stream_close(struct json_stream *stream)
{
	fputc(stream->closing[stream->depth--], stream->out);
	if (stream->depth == 0)
		fputc('\n', stream->out);
}
