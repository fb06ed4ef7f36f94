/*
 * Rank and world of this process as the launcher that started it tells them: torchrun
 * (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE), horovodrun (HOROVOD_RANK, HOROVOD_SIZE,
 * HOROVOD_LOCAL_RANK, HOROVOD_LOCAL_SIZE), Open MPI (OMPI_COMM_WORLD_RANK / SIZE /
 * LOCAL_RANK / LOCAL_SIZE), MPICH and other PMI launchers (PMI_RANK, PMI_SIZE,
 * MPI_LOCALRANKID, MPI_LOCALNRANKS), SLURM (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID,
 * SLURM_NTASKS_PER_NODE) and paddle.distributed.launch (PADDLE_TRAINER_ID,
 * PADDLE_TRAINERS_NUM, PADDLE_RANK_IN_NODE), first match in that order. Without any: a
 * single process, rank 0 of 1.
 */
#ifndef DALIC_ENGINE_LAUNCHER_H
#define DALIC_ENGINE_LAUNCHER_H

typedef struct dalic_launcher {
	const char *name; /* "torchrun", "horovodrun", "Open MPI", "PMI", "SLURM", "paddle",
	                     NULL when no launcher started this process */
	int rank, world;             /* global */
	int local_rank, local_world; /* on this node */
} dalic_launcher_t;

/* Reads the environment. DALIC_EINVAL (message naming the variable) when a variable is not
 * a number or a rank lies outside its world. */
int dalic_launcher_read(dalic_launcher_t *out);

#endif
