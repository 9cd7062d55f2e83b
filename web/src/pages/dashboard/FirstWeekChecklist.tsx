/**
 * The first-week checklist card (issue 10, point 5): steps from checklist.ts, ticked from the
 * company's real state. "Dismiss" hides it in this browser; the Learning Base's Basics links to
 * /?checklist=show, which shows it again.
 */
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Anchor, Button, Card, Group, List, Progress, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconCircleDashed } from '@tabler/icons-react';
import { useBuildings } from '../../hooks/useGameData';
import { trpc } from '../../trpc';
import { firstWeekChecklist } from './checklist';

export const CHECKLIST_ANCHOR = 'first-week';
const dismissedKey = (companyId: number) => `marketcraft-checklist-dismissed-${companyId}`;

function readDismissed(companyId: number): boolean {
  try {
    return window.localStorage.getItem(dismissedKey(companyId)) === '1';
  } catch {
    return false;
  }
}

function writeDismissed(companyId: number, dismissed: boolean): void {
  try {
    if (dismissed) window.localStorage.setItem(dismissedKey(companyId), '1');
    else window.localStorage.removeItem(dismissedKey(companyId));
  } catch {
    // Private mode without storage: the card just comes back next visit.
  }
}

export function FirstWeekChecklist({ companyId }: { companyId: number }) {
  const [params, setParams] = useSearchParams();
  const [dismissed, setDismissed] = useState(() => readDismissed(companyId));
  const buildings = useBuildings();
  const holdings = trpc.warehouse.holdings.useQuery(undefined, { enabled: !dismissed });
  const reports = trpc.reports.list.useQuery(undefined, { enabled: !dismissed });

  // /?checklist=show (the Learning Base's link) brings a dismissed checklist back: shown in this
  // render already, then remembered and the address cleaned up once it has committed.
  const showRequested = params.get('checklist') === 'show';
  if (showRequested && dismissed) setDismissed(false);
  useEffect(() => {
    if (!showRequested) return;
    writeDismissed(companyId, false);
    const next = new URLSearchParams(params);
    next.delete('checklist');
    setParams(next, { replace: true });
    document.getElementById(CHECKLIST_ANCHOR)?.scrollIntoView();
  }, [showRequested, params, setParams, companyId]);

  if (dismissed || !buildings.data || !holdings.data || !reports.data) return null;
  const steps = firstWeekChecklist({ buildings: buildings.data, holdings: holdings.data.items, reports: reports.data });
  const doneCount = steps.filter((step) => step.done).length;
  const allDone = doneCount === steps.length;
  const dismiss = () => {
    writeDismissed(companyId, true);
    setDismissed(true);
  };

  return (
    <Card withBorder padding="lg" id={CHECKLIST_ANCHOR} data-testid="first-week-checklist" aria-labelledby="first-week-title">
      <Group justify="space-between" wrap="wrap" gap="xs" mb="xs">
        <Title order={2} fz="lg" id="first-week-title">
          {allDone ? 'First week done: your chain works!' : 'Your first week'}
        </Title>
        <Button variant="subtle" size="compact-sm" onClick={dismiss}>
          Dismiss
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        From wheat to bread on a shelf: each step ticks itself when it is done. {doneCount} of {steps.length} done.
      </Text>
      <Progress value={(doneCount / steps.length) * 100} mb="sm" aria-label={`${doneCount} of ${steps.length} steps done`} />
      <List spacing={6} center>
        {steps.map((step) => (
          <List.Item
            key={step.id}
            data-testid={`checklist-${step.id}`}
            data-done={step.done}
            icon={
              <ThemeIcon size={22} radius="xl" color={step.done ? 'teal' : 'gray'} variant={step.done ? 'filled' : 'light'} aria-hidden>
                {step.done ? <IconCheck size={14} /> : <IconCircleDashed size={14} />}
              </ThemeIcon>
            }
          >
            <Anchor component={Link} to={step.to} size="sm" fw={600} td={step.done ? 'line-through' : undefined}>
              {step.label}
            </Anchor>
            <Text span size="sm" c="dimmed">
              {step.done ? ' (done)' : ` - ${step.hint}`}
            </Text>
          </List.Item>
        ))}
      </List>
    </Card>
  );
}
