/* The README's C example: a coin_flip pipeline, run three times, values printed. */
#include <dalic.h>
#include <stdio.h>

int main(void)
{
	dalic_pipeline_params_t params;
	dalic_pipeline_params_init(&params);
	params.batch_size = 4;
	params.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	params.seed = 42;
	dalic_pipeline_t *pipe;
	dalic_op_t *coin;
	if (dalic_pipeline_create(&params, &pipe) ||
	    dalic_pipeline_add_op(pipe, "random.coin_flip", NULL, &coin) ||
	    dalic_op_set_float(coin, "probability", 0.7) ||
	    dalic_pipeline_add_output(pipe, dalic_op_output(coin, 0), NULL)) {
		fprintf(stderr, "error: %s\n", dalic_last_error());
		return 1;
	}
	for (int it = 0; it < 3; it++) {
		if (dalic_pipeline_run(pipe)) {
			fprintf(stderr, "error: %s\n", dalic_last_error());
			dalic_pipeline_destroy(pipe);
			return 1;
		}
		const dalic_batch_t *out = dalic_pipeline_output(pipe, 0);
		for (int i = 0; i < dalic_batch_num_samples(out); i++)
			printf("%d ", *(const int *)dalic_batch_data(out, i));
		printf("\n");
	}
	dalic_pipeline_destroy(pipe);
	return 0;
}
