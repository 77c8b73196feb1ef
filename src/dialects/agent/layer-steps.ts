/**
 * [G-PERM-1] The layers of a Claude-style gate that run before its hooks (the policy's
 * permissions, its guards), asked once per decide with the call's action view — made only when a
 * layer reads it, against the project and home of the sources in force — each verdict recorded
 * at once (and a span of a traced decide), and handed on as an answer for the merge.
 */
import { actionViewOf } from '../../action/action-view.ts';
import type { AgentAnswer } from '../../dispatch/agent-answer.ts';
import type { DecideCall } from '../../dispatch/decide-call.ts';
import { type GateLayer, layerStep, layerVerdicts } from '../../dispatch/gate-layer.ts';
import { runSubject } from '../../dispatch/run-subject.ts';
import type { RunRecord } from '../../records/run-record.ts';
import type { GateRuntime } from './gate-dialect.ts';

export function layerSteps(
  layers: readonly GateLayer[],
  dialect: string,
  event: string,
  input: Record<string, unknown>,
  rt: Pick<GateRuntime, 'projectDir' | 'home' | 'record' | 'sessionId'>,
  call: DecideCall | undefined,
): { answer: AgentAnswer; record: RunRecord }[] {
  const view = () => actionViewOf(input, { projectDir: rt.projectDir(), home: rt.home() });
  const subject = runSubject(input, rt.sessionId, call);
  return layerVerdicts(layers, event, input, view).map(({ layer, verdict }) => {
    const step = layerStep(layer, verdict, { event, dialect, subject });
    rt.record(step.record);
    call?.trace?.recordRun(step.record);
    return step;
  });
}
