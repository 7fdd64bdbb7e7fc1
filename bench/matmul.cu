// matmul: a steady GPU workload for clock sweeps on a discrete NVIDIA GPU.
//
// Each step runs REPS tiled single-precision matrix multiplies of N x N
// matrices, waits for them, and prints "step K" (flushed) on stdout, and
// also appends it to the file named by $DVFSTOP_PROGRESS when that is set,
// so dvfstop (or a script) can count steps.  Runs until STEPS steps are
// done (0: until killed).
//
//   matmul [STEPS [N [REPS]]]      defaults: 0, 4096, 8
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define TILE 32

static void check(cudaError_t e, const char *what)
{
	if (e != cudaSuccess) {
		std::fprintf(stderr, "matmul: %s: %s\n", what, cudaGetErrorString(e));
		std::exit(1);
	}
}

// C = A x B, row-major, n a multiple of TILE.
__global__ void mm(const float *a, const float *b, float *c, int n)
{
	__shared__ float ta[TILE][TILE];
	__shared__ float tb[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y;
	int col = blockIdx.x * TILE + threadIdx.x;
	float acc = 0.0f;
	for (int t = 0; t < n; t += TILE) {
		ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
		tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
		__syncthreads();
	}
	c[row * n + col] = acc;
}

__global__ void fill(float *p, size_t n, float v)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = v * (float)((i % 17) + 1) / 17.0f;
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? std::atol(argv[1]) : 0;
	int n = argc > 2 ? std::atoi(argv[2]) : 4096;
	int reps = argc > 3 ? std::atoi(argv[3]) : 8;
	if (steps < 0 || n < TILE || n % TILE || n > 32768 || reps < 1) {
		std::fprintf(stderr, "usage: matmul [STEPS [N [REPS]]]  (N a multiple of %d)\n", TILE);
		return 2;
	}
	size_t elems = (size_t)n * n;
	float *a, *b, *c;
	check(cudaMalloc(&a, elems * sizeof(float)), "cudaMalloc");
	check(cudaMalloc(&b, elems * sizeof(float)), "cudaMalloc");
	check(cudaMalloc(&c, elems * sizeof(float)), "cudaMalloc");
	unsigned blocks = (unsigned)((elems + 255) / 256);
	fill<<<blocks, 256>>>(a, elems, 1.0f);
	fill<<<blocks, 256>>>(b, elems, 0.5f);
	check(cudaDeviceSynchronize(), "fill");

	const char *prog = std::getenv("DVFSTOP_PROGRESS");
	FILE *pf = prog && *prog ? std::fopen(prog, "a") : nullptr;
	dim3 grid(n / TILE, n / TILE), block(TILE, TILE);
	for (long k = 1; steps == 0 || k <= steps; k++) {
		for (int r = 0; r < reps; r++)
			mm<<<grid, block>>>(a, b, c, n);
		check(cudaDeviceSynchronize(), "matmul");
		std::printf("step %ld\n", k);
		std::fflush(stdout);
		if (pf) {
			std::fprintf(pf, "step %ld\n", k);
			std::fflush(pf);
		}
	}
	if (pf)
		std::fclose(pf);
	cudaFree(a);
	cudaFree(b);
	cudaFree(c);
	return 0;
}
