import type { ReactNode } from 'react';
import { oneTimeGuard } from '../../../session/session.ts';
import { LinkProblemPage } from './link-problem.tsx';

/**
 * The guest screens behind the code: without a guest session in this tab they show how to get one (the mail link or
 * the access code) instead of redirecting, as the spec's public list asks for /onetime/business-flows/.
 */
export function GuestSessionGate({ children }: { children: ReactNode }) {
  if (!oneTimeGuard.hasSession() || oneTimeGuard.claims() === null) return <LinkProblemPage problem="session" />;
  return children;
}
