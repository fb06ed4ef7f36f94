/*
 * DOT export in DALI's save_graph_to_dot_file format (docs/dali-behaviour.md §9): exact text for small
 * built graphs, with and without data nodes and colours; id escaping, stage colours, distinct
 * children and argument-input numbering on a hand-made graph; SVG and PNG rendering through
 * libgraphviz produce valid files.
 */
#include "frontend/dot.h"
#include "frontend/proto/proto.h"
#include "tests/testlib/proto.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TestSuite(dot, .timeout = 20, .fini = tl_tmpdir_remove);

static char *dot_text(const dalic_graph_t *g, bool show_tensors, bool use_colors)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	ASSERT_OK(dalic_dot_write(g, f, show_tensors, use_colors));
	fclose(f);
	return text;
}

static dalic_graph_t *dot_built_coin_cast(dalic_graphdef_t **def)
{
	*def = tl_proto_coin_cast();
	dalic_graph_t *g;
	ASSERT_OK(dalic_graph_build(*def, &g));
	return g;
}

Test(dot, coin_cast_plain)
{
	dalic_graphdef_t *def;
	dalic_graph_t *g = dot_built_coin_cast(&def);
	char *text = dot_text(g, false, false);
	cr_expect_str_eq(text, "digraph graphname {\n"
	                       "__CoinFlip_0 -> to_float;\n"
	                       "__CoinFlip_0 -> __MakeContiguous_CpuToCpu___CoinFlip_0;\n"
	                       "\n"
	                       "to_float -> __MakeContiguous_CpuToCpu_to_float;\n"
	                       "\n"
	                       "\n"
	                       "\n"
	                       "}\n");
	free(text);
	dalic_graph_free(g);
	dalic_graphdef_free(def);
}

Test(dot, coin_cast_tensors_and_colors)
{
	dalic_graphdef_t *def;
	dalic_graph_t *g = dot_built_coin_cast(&def);
	char *text = dot_text(g, true, true);
	cr_expect_str_eq(text,
	                 "digraph graphname {\n"
	                 "__CoinFlip_0[color=\"blue\"];\n"
	                 "__CoinFlip_0 -> to_float[style=dotted];\n"
	                 "__CoinFlip_0 -> __MakeContiguous_CpuToCpu___CoinFlip_0[style=dotted];\n"
	                 "__CoinFlip_0_cpu[shape=box];\n"
	                 "__CoinFlip_0 -> __CoinFlip_0_cpu[label=0];\n"
	                 "__CoinFlip_0_cpu -> to_float[label=0];\n"
	                 "__CoinFlip_0_cpu -> __MakeContiguous_CpuToCpu___CoinFlip_0[label=0];\n"
	                 "\n"
	                 "to_float[color=\"blue\"];\n"
	                 "to_float -> __MakeContiguous_CpuToCpu_to_float[style=dotted];\n"
	                 "to_float_cpu[shape=box];\n"
	                 "to_float -> to_float_cpu[label=0];\n"
	                 "to_float_cpu -> __MakeContiguous_CpuToCpu_to_float[label=0];\n"
	                 "\n"
	                 "__MakeContiguous_CpuToCpu___CoinFlip_0[color=\"blue\"];\n"
	                 "contiguous_cpu_to_cpu___CoinFlip_0_cpu[shape=box];\n"
	                 "__MakeContiguous_CpuToCpu___CoinFlip_0 -> contiguous_cpu_to_cpu___CoinFlip_0_cpu[label=0];\n"
	                 "\n"
	                 "__MakeContiguous_CpuToCpu_to_float[color=\"blue\"];\n"
	                 "contiguous_cpu_to_cpu_to_float_cpu[shape=box];\n"
	                 "__MakeContiguous_CpuToCpu_to_float -> contiguous_cpu_to_cpu_to_float_cpu[label=0];\n"
	                 "\n"
	                 "}\n");
	free(text);
	dalic_graph_free(g);
	dalic_graphdef_free(def);
}

/* reader (cpu, outputs reader[0], reader[1]) -> decode (mixed) -> resize (gpu, argument
 * input from reader[1]); "my-op" (cpu) reads reader[0] twice. Built by hand: the DOT
 * writer reads only these fields. */
Test(dot, escaping_stages_children_and_argument_inputs)
{
	dalic_node_t reader = {.inst = "reader", .stage = DALIC_STAGE_CPU};
	dalic_node_t decode = {.inst = "decode", .stage = DALIC_STAGE_MIXED};
	dalic_node_t resize = {.inst = "resize", .stage = DALIC_STAGE_GPU};
	dalic_node_t myop = {.inst = "my-op", .stage = DALIC_STAGE_CPU};
	dalic_node_t *r0_users[] = {&decode, &myop, &myop}, *r1_users[] = {&resize};
	dalic_node_t *dec_users[] = {&resize};
	int r0_inputs[] = {0, 0, 1}, r1_inputs[] = {-1}, dec_inputs[] = {0};
	dalic_edge_t r0 = {.name = "reader[0]",
	                   .producer = &reader,
	                   .consumers = r0_users,
	                   .consumer_input = r0_inputs,
	                   .num_consumers = 3};
	dalic_edge_t r1 = {.name = "reader[1]",
	                   .producer = &reader,
	                   .producer_output = 1,
	                   .consumers = r1_users,
	                   .consumer_input = r1_inputs,
	                   .num_consumers = 1};
	dalic_edge_t dec = {.name = "decode",
	                    .gpu = true,
	                    .producer = &decode,
	                    .consumers = dec_users,
	                    .consumer_input = dec_inputs,
	                    .num_consumers = 1};
	dalic_edge_t *reader_out[] = {&r0, &r1}, *decode_out[] = {&dec}, *decode_in[] = {&r0};
	dalic_edge_t *resize_in[] = {&dec}, *resize_arg_in[] = {&r1}, *myop_in[] = {&r0, &r0};
	reader.outputs = reader_out;
	reader.num_outputs = 2;
	decode.inputs = decode_in;
	decode.num_inputs = 1;
	decode.outputs = decode_out;
	decode.num_outputs = 1;
	resize.inputs = resize_in;
	resize.num_inputs = 1;
	resize.arg_inputs = resize_arg_in;
	resize.num_arg_inputs = 1;
	myop.inputs = myop_in;
	myop.num_inputs = 2;
	dalic_node_t *nodes[] = {&reader, &myop, &decode, &resize};
	dalic_graph_t g = {.nodes = nodes, .num_nodes = 4};
	char *text = dot_text(&g, true, true);
	cr_expect_str_eq(text, "digraph graphname {\n"
	                       "reader[color=\"blue\"];\n"
	                       "reader -> decode[style=dotted];\n"
	                       "reader -> \"my-op\"[style=dotted];\n"
	                       "reader -> resize[style=dotted];\n"
	                       "reader_0__cpu[shape=box];\n"
	                       "reader -> reader_0__cpu[label=0];\n"
	                       "reader_0__cpu -> decode[label=0];\n"
	                       "reader_0__cpu -> \"my-op\"[label=0];\n"
	                       "reader_0__cpu -> \"my-op\"[label=1];\n"
	                       "reader_1__cpu[shape=box];\n"
	                       "reader -> reader_1__cpu[label=1];\n"
	                       "reader_1__cpu -> resize[label=1];\n"
	                       "\n"
	                       "\"my-op\"[color=\"blue\"];\n"
	                       "\n"
	                       "decode[color=\"cyan\"];\n"
	                       "decode -> resize[style=dotted];\n"
	                       "decode_gpu[shape=box];\n"
	                       "decode -> decode_gpu[label=0];\n"
	                       "decode_gpu -> resize[label=0];\n"
	                       "\n"
	                       "resize[color=\"#76b900\"];\n"
	                       "\n"
	                       "}\n");
	free(text);
}

Test(dot, render_dot_file_equals_text)
{
	dalic_graphdef_t *def;
	dalic_graph_t *g = dot_built_coin_cast(&def);
	const char *path = tl_tmp_path("graph.dot");
	ASSERT_OK(dalic_dot_render(g, path, true, false));
	size_t len;
	char *file = tl_read_file(path, &len), *text = dot_text(g, true, false);
	cr_expect_eq(len, strlen(text));
	cr_expect_eq(memcmp(file, text, len), 0);
	free(file);
	free(text);
	dalic_graph_free(g);
	dalic_graphdef_free(def);
}

Test(dot, render_svg)
{
	dalic_graphdef_t *def;
	dalic_graph_t *g = dot_built_coin_cast(&def);
	const char *path = tl_tmp_path("graph.svg");
	ASSERT_OK(dalic_dot_render(g, path, false, true));
	size_t len;
	char *svg = tl_read_file(path, &len);
	/* XML: optional prolog, comments and doctype, then the root element <svg ...> */
	const char *p = svg;
	while (*p) {
		p += strspn(p, " \t\r\n");
		if (!strncmp(p, "<?", 2))
			p = strstr(p, "?>") + 2;
		else if (!strncmp(p, "<!--", 4))
			p = strstr(p, "-->") + 3;
		else if (!strncmp(p, "<!DOCTYPE", 9))
			p = strchr(p, '>') + 1;
		else
			break;
	}
	cr_expect(!strncmp(p, "<svg ", 5), "root element: %.40s", p);
	const char *end = svg + len;
	while (end > svg && strchr(" \t\r\n", end[-1]))
		end--;
	cr_expect(end - svg > 6 && !strncmp(end - 6, "</svg>", 6), "not closed by </svg>");
	EXPECT_HAS(svg, "<title>to_float</title>", "node to_float missing");
	EXPECT_HAS(svg, "<title>__CoinFlip_0&#45;&gt;to_float</title>", "edge missing");
	EXPECT_HAS(svg, "stroke=\"blue\"", "use_colors: cpu nodes are blue");
	free(svg);
	dalic_graph_free(g);
	dalic_graphdef_free(def);
}

static uint32_t dot_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

Test(dot, render_png)
{
	dalic_graphdef_t *def;
	dalic_graph_t *g = dot_built_coin_cast(&def);
	const char *path = tl_tmp_path("graph.png");
	ASSERT_OK(dalic_dot_render(g, path, true, true));
	size_t len;
	uint8_t *png = tl_read_file(path, &len);
	static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	cr_assert_gt(len, 33u + 12u);
	cr_expect_eq(memcmp(png, sig, 8), 0, "PNG signature");
	cr_expect_eq(dot_be32(png + 8), 13u, "IHDR length");
	cr_expect_eq(memcmp(png + 12, "IHDR", 4), 0);
	uint32_t w = dot_be32(png + 16), h = dot_be32(png + 20);
	/* six nodes in three ranks at Graphviz's default 96 dpi: well over 100 px each way */
	cr_expect(w > 100 && w < 10000 && h > 100 && h < 10000, "size %ux%u", w, h);
	cr_expect_eq(memcmp(png + len - 8, "IEND", 4), 0, "IEND chunk last");
	free(png);
	dalic_graph_free(g);
	dalic_graphdef_free(def);
}

Test(dot, bad_extension_and_unwritable_path)
{
	dalic_graphdef_t *def;
	dalic_graph_t *g = dot_built_coin_cast(&def);
	EXPECT_STATUS(dalic_dot_render(g, "/tmp/graph.pdf", false, false), DALIC_EINVAL);
	EXPECT_ERROR_HAS(".svg");
	EXPECT_STATUS(dalic_dot_render(g, "/nonexistent/dir/graph.dot", false, false), DALIC_EIO);
	EXPECT_ERROR_HAS("/nonexistent/dir/graph.dot");
	dalic_graph_free(g);
	dalic_graphdef_free(def);
}
