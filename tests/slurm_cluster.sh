#!/bin/bash
# A private single-node Slurm cluster for the kit's tests, as root: munged with a key of its own, slurmctld and
# slurmd on this host, their state and logs in a folder of their own under /tmp, ports that were free. Runs COMMAND
# with SLURM_CONF pointing at it, then stops the cluster whatever happened and exits with COMMAND's status; 3 when
# the cluster could not start. The folder is removed when COMMAND succeeded, else kept for its logs (named on
# stderr). CLKIT_SLURM_GPUS=N declares N GPUs as the node's gpu GRES, as a GPU cluster does (GresTypes, Gres= and
# gres.conf), though their device files are /dev/null: a job that asks for them runs, Slurm sets its GPU variables.
#   tests/slurm_cluster.sh COMMAND...            (tests/slurm_cluster.sh bash: a shell on the cluster)
set -u
[ $# -gt 0 ] || { echo "usage: tests/slurm_cluster.sh COMMAND..." >&2; exit 2; }
for tool in munged slurmctld slurmd sbatch squeue sinfo scontrol python3; do
    command -v "$tool" >/dev/null || {
        echo "slurm_cluster: $tool is not installed (apt-get install slurm-wlm munge)" >&2; exit 3; }
done
[ "$(id -u)" -eq 0 ] || { echo "slurm_cluster: must run as root (slurmd starts jobs as their users)" >&2; exit 3; }
gpus=${CLKIT_SLURM_GPUS:-0}
case $gpus in
[0-9]) ;;
*) echo "slurm_cluster: CLKIT_SLURM_GPUS must be a number of GPUs from 0 to 9 (it is $gpus)" >&2; exit 2 ;;
esac
# Under /tmp: munged's socket path must be short (108 bytes), and the folder private (munged checks).
dir=$(mktemp -d /tmp/clkit-slurm.XXXXXX) || exit 2
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" && chmod 700 "$dir/munge" || exit 2

pids=()
up=0
stop() {
    # Jobs first (their slurmstepd and processes end with them), then the daemons, each by its own id.
    [ "$up" -eq 0 ] || timeout 10 scancel --quiet --full "--user=$(id -un)" 2>/dev/null
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    for _ in $(seq 50); do
        alive=0
        for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" -eq 0 ] && break
        sleep 0.1
    done
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
    wait 2>/dev/null
}
finish() {
    local status=$?
    stop
    if [ "$status" -eq 0 ]; then
        rm -rf "$dir"
    else
        echo "slurm_cluster: exit status $status; the cluster's logs are in $dir" >&2
    fi
    exit "$status"
}
trap finish EXIT
trap 'exit 130' INT TERM

host=$(hostname -s)
# The node as slurmd sees it (CPUs, sockets, cores, memory), so that the configuration fits any machine.
node=$(slurmd -C | sed -n '1s/^NodeName=[^ ]* //p')
gres=
if [ "$gpus" -gt 0 ]; then
    gres="Gres=gpu:$gpus"
    for i in $(seq 0 $((gpus - 1))); do
        touch "$dir/gpu$i" && echo "NodeName=$host Name=gpu File=$dir/gpu$i"
    done > "$dir/gres.conf"
fi

# slurm.conf for slurmctld on port $1 and slurmd on port $2.
configure() {
    cat > "$dir/slurm.conf" <<EOF
ClusterName=clkit-check
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MailProg=/bin/true
MinJobAge=600
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 $node $gres State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}
export SLURM_CONF=$dir/slurm.conf

dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$dir/munge/munge.key"
munged --foreground --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" \
    >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done

# Two ports nobody listens on now (the kernel's choice); another cluster may take one before slurmctld or slurmd
# binds it, and then that daemon ends: three tries, each bounded (30 s until the node takes jobs).
state=
for attempt in 1 2 3; do
    # shellcheck disable=SC2046 # two port numbers
    configure $(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
    slurmctld -D -i >"$dir/slurmctld.out" 2>&1 &
    ctld=$!
    slurmd -D -N "$host" >"$dir/slurmd.out" 2>&1 &
    slurmd=$!
    pids+=("$ctld" "$slurmd")
    for _ in $(seq 150); do
        state=$(sinfo -h -n "$host" -o %T 2>/dev/null)
        [ "$state" = idle ] && break
        kill -0 "$ctld" 2>/dev/null && kill -0 "$slurmd" 2>/dev/null || break
        sleep 0.2
    done
    [ "$state" = idle ] && break
    echo "slurm_cluster: try $attempt: the node did not come up (state: ${state:-none})" >&2
    kill -TERM "$ctld" "$slurmd" 2>/dev/null
    wait "$ctld" "$slurmd" 2>/dev/null
done
if [ "$state" != idle ]; then
    echo "slurm_cluster: the cluster did not start; logs in $dir:" >&2
    tail -n 20 "$dir"/munge/munged.log "$dir"/slurmctld.log "$dir"/slurmd.log >&2 2>/dev/null
    exit 3
fi
up=1
"$@"
