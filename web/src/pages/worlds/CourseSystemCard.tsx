/**
 * The Manage page's "Course system (LTI 1.3)" card (docs/classroom.md): the courses that launch
 * into the world (and linking a new course to another of the instructor's worlds), the addresses a
 * course platform's registration asks for, the platforms registered (and the form to register
 * one), the grade passback and the course roster. The addresses come from the plain route
 * /api/lti/config (beside the protocol's form posts); the rest are tRPC procedures (routers/lti.ts).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { ActionIcon, Badge, Button, CopyButton, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconLink, IconSchool, IconSend, IconUsers } from '@tabler/icons-react';
import { registerLtiPlatformSchema, type LtiToolConfig } from '@marketcraft/shared';
import { QueryState } from '../../components/QueryState';
import { SectionCard } from '../../components/SectionCard';
import { TableScroll } from '../../components/TableScroll';
import { requestJson } from '../../lib/http';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';

const ADDRESS_LABELS: [keyof LtiToolConfig, string][] = [
  ['login_url', 'Login (OpenID Connect initiation) URL'],
  ['launch_url', 'Launch (target link / redirect) URL'],
  ['deep_link_url', 'Deep linking URL'],
  ['jwks_url', 'Public keyset (JWKS) URL'],
];

const EMPTY_FORM = { issuer: '', client_id: '', deployment_ids: '', auth_login_url: '', auth_token_url: '', jwks_url: '' };

function ToolAddresses() {
  const config = useQuery({ queryKey: ['lti', 'config'], queryFn: () => requestJson<LtiToolConfig>('GET', '/api/lti/config') });
  return (
    <QueryState query={config}>
      {(urls) => (
        <Stack gap={6} data-testid="lti-addresses">
          {ADDRESS_LABELS.map(([key, label]) => (
            <Group key={key} gap="xs" wrap="nowrap" justify="space-between">
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>
                  {label}
                </Text>
                <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {urls[key]}
                </Text>
              </div>
              <CopyButton value={urls[key]}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy'}>
                    <ActionIcon variant="subtle" onClick={copy} aria-label={`Copy the ${label}`}>
                      {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          ))}
        </Stack>
      )}
    </QueryState>
  );
}

function PlatformRegistration() {
  const platforms = trpc.lti.platforms.useQuery();
  const [form, setForm] = useState(EMPTY_FORM);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const register = trpc.lti.registerPlatform.useMutation({
    onSuccess: () => {
      notifySuccess('Platform registered', 'Launches from it now sign students in.');
      setForm(EMPTY_FORM);
    },
    onError: (error) => notifyFailure('Error', error, 'Could not register the platform'),
  });
  const submit = () => {
    const input = { ...form, deployment_ids: form.deployment_ids.split(/[\s,]+/).filter(Boolean) };
    const parsed = registerLtiPlatformSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    register.mutate(parsed.data);
  };
  const field = (name: keyof typeof EMPTY_FORM, label: string, placeholder: string) => (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={form[name]}
      error={errors[name]}
      onChange={(event) => setForm({ ...form, [name]: event.currentTarget.value })}
      data-testid={`lti-${name}`}
    />
  );
  return (
    <Stack gap="sm">
      <Title order={3} fz="md">
        Registered platforms
      </Title>
      <QueryState query={platforms} empty="No course platform registered yet: register yours below.">
        {(rows) => (
          <TableScroll minWidth={560} label="Registered course platforms">
            <Table striped data-testid="lti-platforms">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Issuer</Table.Th>
                  <Table.Th>Client id</Table.Th>
                  <Table.Th>Deployment ids</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.issuer}</Table.Td>
                    <Table.Td>{row.client_id}</Table.Td>
                    <Table.Td>{row.deployment_ids.join(', ')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryState>
      <Title order={3} fz="md" mt="sm">
        Register a platform
      </Title>
      <Text size="sm" c="dimmed">
        Copy these from your course system's tool configuration (Canvas: the developer key and its deployment; Moodle: the tool's configuration details).
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {field('issuer', 'Issuer (platform id)', 'https://canvas.instructure.com')}
        {field('client_id', 'Client id', '10000000000001')}
        <Textarea
          label="Deployment ids"
          description="One or more, separated by commas or lines"
          value={form.deployment_ids}
          error={errors.deployment_ids}
          onChange={(event) => setForm({ ...form, deployment_ids: event.currentTarget.value })}
          autosize
          minRows={1}
          data-testid="lti-deployment_ids"
        />
        {field('auth_login_url', 'Authentication request URL', 'https://…/authorize_redirect')}
        {field('auth_token_url', 'Access token URL', 'https://…/token')}
        {field('jwks_url', 'Keyset (JWKS) URL', 'https://…/jwks')}
      </SimpleGrid>
      <Group>
        <Button onClick={submit} loading={register.isPending} data-testid="lti-register">
          Register platform
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The courses that launch into this world. A course's first launch creates a world; until a
 * student joins it, the instructor can send the course to one of their existing worlds instead
 * (this one then ends) and continues on that world's Manage page.
 */
function CourseLink({ worldId }: { worldId: number }) {
  const navigate = useNavigate();
  const courses = trpc.lti.courses.useQuery({ id: worldId });
  const worlds = trpc.worlds.list.useQuery();
  const [target, setTarget] = useState<string | null>(null);
  const link = trpc.lti.linkCourse.useMutation({
    onSuccess: (_answer, input) => {
      notifySuccess('Course linked', 'Launches from the course now open the world you chose. This world has ended.');
      void navigate(`/worlds/${input.world_id}/manage`);
    },
    onError: (error) => notifyFailure('Error', error, 'Could not link the course'),
  });
  if (!courses.data || courses.data.length === 0) return null;
  const movable = courses.data.every((course) => course.can_move);
  const choices = (worlds.data ?? [])
    .filter((world) => world.id !== worldId && world.kind === 'private' && world.status !== 'ended')
    .filter((world) => world.role === 'instructor' || world.role === 'co_instructor' || world.role === 'admin')
    .map((world) => ({ value: String(world.id), label: world.name }));
  const titles = courses.data.map((course) => course.title ?? 'a course').join(', ');
  return (
    <Stack gap="xs" data-testid="lti-courses">
      <Title order={3} fz="md">
        Course
      </Title>
      <Text size="sm">Launches from {titles} open this world.</Text>
      {movable && choices.length > 0 && (
        <>
          <Text size="sm" c="dimmed">
            Meant this course to play in a world you already run? Link it there: its students will land in that world, and this one (no student has joined it
            yet) ends.
          </Text>
          <Group align="end" gap="xs">
            <Select
              label="Your world"
              placeholder="Choose a world"
              data={choices}
              value={target}
              onChange={setTarget}
              allowDeselect={false}
              data-testid="lti-link-world"
            />
            <Button
              variant="light"
              leftSection={<IconLink size={16} aria-hidden />}
              disabled={target === null}
              loading={link.isPending}
              onClick={() => target !== null && link.mutate({ id: worldId, world_id: Number(target) })}
              data-testid="lti-link-course"
            >
              Link the course there
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

function GradesAndRoster({ worldId }: { worldId: number }) {
  const [showRoster, setShowRoster] = useState(false);
  const roster = trpc.lti.roster.useQuery({ id: worldId }, { enabled: showRoster });
  const sendGrades = trpc.lti.postScores.useMutation({
    onSuccess: ({ posted, unchanged }) =>
      notifySuccess(
        'Grades sent',
        posted + unchanged === 0 ? 'No student has launched from a course yet.' : `${posted} score(s) posted, ${unchanged} unchanged.`,
      ),
    onError: (error) => notifyFailure('Error', error, 'Could not send the grades'),
  });
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Each student's world score (out of 100, by net-worth rank) goes to the course's gradebook after every turn where it changed.
      </Text>
      <Group gap="xs">
        <Button
          variant="light"
          leftSection={<IconSend size={16} aria-hidden />}
          onClick={() => sendGrades.mutate({ id: worldId })}
          loading={sendGrades.isPending}
          data-testid="lti-send-grades"
        >
          Send grades now
        </Button>
        <Button
          variant="default"
          leftSection={<IconUsers size={16} aria-hidden />}
          onClick={() => (showRoster ? void roster.refetch() : setShowRoster(true))}
          data-testid="lti-roster-button"
        >
          Course roster
        </Button>
      </Group>
      {showRoster && (
        <QueryState query={roster} empty="The course lists no members.">
          {(members) => (
            <TableScroll minWidth={480} label="Course roster">
              <Table striped data-testid="lti-roster">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Email</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Launched</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {members.map((member) => (
                    <Table.Tr key={member.user_id}>
                      <Table.Td>{member.name ?? member.user_id}</Table.Td>
                      <Table.Td>{member.email ?? '—'}</Table.Td>
                      <Table.Td>{member.roles.some((role) => /#(Instructor|Administrator)$/.test(role)) ? 'Instructor' : 'Learner'}</Table.Td>
                      <Table.Td>{member.launched ? <Badge color="green">Yes</Badge> : <Badge color="gray">Not yet</Badge>}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableScroll>
          )}
        </QueryState>
      )}
    </Stack>
  );
}

export function CourseSystemCard({ worldId }: { worldId: number }) {
  return (
    <SectionCard title="Course system (LTI 1.3)" icon={IconSchool} data-testid="course-system-card">
      <Stack gap="lg">
        <Text size="sm">
          Launch this game from Canvas, Moodle or another LTI 1.3 course system: give it these addresses, then register the platform here. Step by step:
          docs/classroom.md.
        </Text>
        <CourseLink worldId={worldId} />
        <ToolAddresses />
        <GradesAndRoster worldId={worldId} />
        <PlatformRegistration />
      </Stack>
    </SectionCard>
  );
}
