# SPDX-License-Identifier: GPL-3.0-or-later
# bash completion for rdtscope-cli, installed to share/bash-completion/completions/rdtscope-cli.
# Commands and options come from the program's own --help at completion time, so they never drift from it;
# scenario and preset names from `rdtscope-cli sim --list`.

# The subcommands `PROGRAM [COMMAND] --help` lists (the commands, or alloc's and groups' actions).
_rdtscope_cli_commands()
{
    "$@" --help 2>/dev/null | awk '/^Subcommands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}

_rdtscope_cli_options()
{
    "$@" --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}

_rdtscope_cli_sim_names()
{
    # "presets" or "scenarios": the names listed under that heading of `sim --list`
    "$1" sim --list 2>/dev/null | awk -v want="$2" '/^[a-z]/ { on = index($0, want) == 1; next } on { print $1 }'
}

_rdtscope_cli()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} prog=${COMP_WORDS[0]}
    COMPREPLY=()
    # The command is the first word after the global options (--connect URL, --agent PATH); alloc and groups
    # take an action after it (show, set, list, ...), as sweep does (ways, mba), whose options are its own.
    local i=1 command= action=
    while ((i < COMP_CWORD)); do
        case ${COMP_WORDS[i]} in
            --connect | --agent) ((i += 2)) ;;
            --connect=* | --agent=*) ((i += 1)) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    local actions=
    if [ "$command" = alloc ] || [ "$command" = groups ] || [ "$command" = sweep ]; then
        actions=" $(_rdtscope_cli_commands "$prog" "$command" | xargs) "
        local j
        for ((j = i + 1; j < COMP_CWORD; j++)); do # the first word that is an action (not an option's value)
            [[ $actions == *" ${COMP_WORDS[j]} "* ]] && { action=${COMP_WORDS[j]}; break; }
        done
    fi

    case $prev in
        --connect) mapfile -t COMPREPLY < <(compgen -W 'ssh:// unix: local' -- "$cur"); compopt -o nospace 2>/dev/null; return ;;
        --source) mapfile -t COMPREPLY < <(compgen -W 'auto sim sim-msr resctrl msr perf' -- "$cur"); return ;;
        --scenario) mapfile -t COMPREPLY < <(compgen -W "$(_rdtscope_cli_sim_names "$prog" scenarios)" -f -- "$cur"); return ;;
        --preset | --machine) mapfile -t COMPREPLY < <(compgen -W "$(_rdtscope_cli_sim_names "$prog" presets)" -- "$cur"); return ;;
        --sysfs | --symfs) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
        --agent | --cpuid-dump | --save-cpuid | --sim-cpuid | -o | --output) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
    esac

    if [ -z "$command" ]; then
        if [[ $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W '--connect --agent --help --version' -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "$(_rdtscope_cli_commands "$prog")" -- "$cur")
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_rdtscope_cli_options "$prog" "$command" $action)" -- "$cur")
        return
    fi
    case $command in
        alloc | groups)
            [ -n "$action" ] || { mapfile -t COMPREPLY < <(compgen -W "$actions" -- "$cur"); return; } ;;
        pmu)
            ((COMP_CWORD == i + 1)) && { mapfile -t COMPREPLY < <(compgen -W 'tma lbr mem' -- "$cur"); return; } ;;
    esac
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
complete -o filenames -F _rdtscope_cli rdtscope-cli
