# Sourced by the load scripts: busy_start K spins K busy loops in the background; busy_stop ends them.
busy_loops=""
busy_start() {
    i=0
    while [ "$i" -lt "$1" ]; do
        sh -c 'while :; do :; done' &
        busy_loops="$busy_loops $!"
        i=$((i + 1))
    done
}
busy_stop() {
    for pid in $busy_loops; do kill "$pid" 2>/dev/null; done
    for pid in $busy_loops; do wait "$pid" 2>/dev/null; done
    busy_loops=""
}
