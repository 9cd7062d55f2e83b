/** The new token, shown this once, with a copy button and how to use it. */
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

export interface NewToken {
  token: string;
  name: string;
  scope: string;
}

export function NewTokenModal({ created, onClose }: { created: NewToken | null; onClose: () => void }) {
  const token = created?.token;
  return (
    <Modal opened={created !== null} onClose={onClose} title="Your new API token" size="lg" closeOnClickOutside={false}>
      {created && token && (
        <Stack gap="md">
          <Text size="sm">
            <b>Token created</b>: "{created.name}" can {created.scope} from now on.
          </Text>
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Copy it now">
            This is the only time the token is shown: Marketcraft keeps only a fingerprint of it. Keep it secret, like a password.
          </Alert>
          <Code block data-testid="new-api-token" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {token}
          </Code>
          <Group>
            <CopyButton value={token}>
              {({ copied, copy }) => (
                <Button
                  onClick={copy}
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                >
                  {copied ? 'Copied' : 'Copy token'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="sm">Try it:</Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {`curl ${window.location.origin}/api/company -H "Authorization: Bearer ${token}"`}
          </Code>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Done, I copied it
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
