// Every file generated from deploy/topology.json, by path relative to the repository root.
import type { Topology } from './topology';
import { renderCompose } from './render/compose';
import { renderHaproxy } from './render/haproxy';
import { composePlacement } from './render/commands';
import { composeRulesFile, renderPrometheus } from './render/prometheus';

export function generatedFiles(t: Topology): Record<string, string> {
  return {
    'deploy/docker-compose.yml': renderCompose(t),
    'deploy/haproxy/haproxy.cfg': renderHaproxy(t, composePlacement(t)),
    'deploy/prometheus/prometheus.yml': renderPrometheus(t, composePlacement(t), composeRulesFile),
  };
}
