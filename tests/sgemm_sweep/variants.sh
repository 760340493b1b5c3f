# Prints the variant list; $1: extra options for every sgemm build (e.g. -cl-nv-verbose).
X="$1"
v() { echo "$1|sgemm.cl|sgemm|$2 $X|$3|1|$4|$5"; }
echo "warmup|lab8.cl|matmul_reg|-DTILE=128 -DWPT=8|16|16|128|128"
echo "lab8_128x8|lab8.cl|matmul_reg|-DTILE=128 -DWPT=8 $X|16|16|128|128"
# the kernels/ candidate (any size: edge paths), BK 8 by default
echo "wt_bk8|wt.cl|matmul_warptile|${X:--}|256|1|128|128"
echo "wt_bk16|wt.cl|matmul_warptile|-DBK=16 $X|256|1|128|128"
echo "wt_bk8_r128|wt.cl|matmul_warptile|-cl-nv-maxrregcount=128 $X|256|1|128|128"
# 128x128, 256 work-items, 8x8 each: warp layouts
v w64x32_4x4       "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2" 256 128 128
v w32x64_4x4       "-DWM=32 -DWN=64 -DTM=4 -DTN=4 -DWNITER=2" 256 128 128
v w64x32_8x4       "-DWM=64 -DWN=32 -DTM=8 -DTN=4 -DWNITER=2" 256 128 128
v w32x64_4x8       "-DWM=32 -DWN=64 -DTM=4 -DTN=8 -DWNITER=1" 256 128 128
v w128x16_4x4      "-DWM=128 -DWN=16 -DTM=4 -DTN=4 -DWNITER=1" 256 128 128
# strip depth, buffering, padding, vload, mad
v w64x32_bk8       "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DBK=8" 256 128 128
v w32x64_bk8       "-DWM=32 -DWN=64 -DTM=4 -DTN=4 -DWNITER=2 -DBK=8" 256 128 128
v w64x32_nodb      "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DDB=0" 256 128 128
v w64x32_nodb_bk32 "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DDB=0 -DBK=32" 256 128 128
v w64x32_apad0     "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DAPAD=0" 256 128 128
v w64x32_apad8     "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DAPAD=8" 256 128 128
v w64x32_vl        "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DVL=1" 256 128 128
v w64x32_mad       "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -cl-mad-enable" 256 128 128
v w64x32_fast      "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -cl-fast-relaxed-math" 256 128 128
# 128x128, 128 work-items, 8x16 each (4 warps of 64x64)
v t128_w64x64      "-DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=4" 128 128 128
v t128_w64x64_bk8  "-DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=4 -DBK=8" 128 128 128
v t128_w64x64_w2   "-DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=2" 128 128 128
# 256x128 and 128x256, 256 work-items, 16x8 / 8x16 each
v b256x128_w64x64  "-DBM=256 -DBN=128 -DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=2 -DBK=8" 256 256 128
v b256x128_w4      "-DBM=256 -DBN=128 -DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=4 -DBK=8" 256 256 128
v b128x256_w64x64  "-DBM=128 -DBN=256 -DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=4 -DBK=8" 256 128 256
v b128x256_w2      "-DBM=128 -DBN=256 -DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=2 -DBK=8" 256 128 256
# 128x64 and 64x128, 128 work-items, 8x8 each (more groups in flight)
v b128x64          "-DBM=128 -DBN=64 -DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2" 128 128 64
v b64x128          "-DBM=64 -DBN=128 -DWM=32 -DWN=64 -DTM=4 -DTN=4 -DWNITER=2" 128 64 128
v b128x64_bk32_nodb "-DBM=128 -DBN=64 -DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DBK=32 -DDB=0" 128 128 64
# register caps (2 groups of 256 per SM need <= 128 registers)
v w64x32_r128      "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -cl-nv-maxrregcount=128" 256 128 128
v t128_r168        "-DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=4 -cl-nv-maxrregcount=168" 128 128 128
v b256x128_r255    "-DBM=256 -DBN=128 -DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=2 -DBK=8 -cl-nv-maxrregcount=255" 256 256 128
v w32x64_bk8_r128  "-DWM=32 -DWN=64 -DTM=4 -DTN=4 -DWNITER=2 -DBK=8 -cl-nv-maxrregcount=128" 256 128 128
v w64x32_bk8_r128  "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DBK=8 -cl-nv-maxrregcount=128" 256 128 128
v w64x32_nodb_r128 "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DDB=0 -cl-nv-maxrregcount=128" 256 128 128
# block order: SWZ block rows per band (L2 reuse)
v w64x32_swz8      "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DSWZ=8" 256 128 128
v w64x32_bk8_swz8  "-DWM=64 -DWN=32 -DTM=4 -DTN=4 -DWNITER=2 -DBK=8 -DSWZ=8" 256 128 128
v b256x128_swz4    "-DBM=256 -DBN=128 -DWM=64 -DWN=64 -DTM=4 -DTN=4 -DWNITER=2 -DBK=8 -DSWZ=4" 256 256 128
