//! Vulkan through `ash`, with `libvulkan.so.1` loaded at run time (no link-time
//! dependency: the binary builds and starts everywhere, and says so when there is no
//! loader or no device). One compute queue, host-visible coherent buffers, one compute
//! pipeline per test.

use crate::bindings::BINDINGS;
use crate::error::ObserveError;
use ash::vk;

/// What observe needs to know about a physical device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    pub index: usize,
    pub name: String,
    /// `major.minor.patch` of the device's Vulkan version.
    pub api_version: String,
    /// `integrated GPU`, `discrete GPU`, `CPU`, ...
    pub kind: &'static str,
    pub driver: String,
    pub subgroup_size: u32,
    pub max_workgroup_size: u32,
    pub features: Features,
    /// Why observe cannot use this device at all (`None`: it can).
    pub unfit: Option<String>,
}

/// The memory-model and integer features that decide what a test may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Features {
    pub memory_model: bool,
    pub device_scope: bool,
    pub chains: bool,
    pub int64: bool,
    pub buffer_int64_atomics: bool,
    pub shared_int64_atomics: bool,
}

/// A loaded Vulkan instance.
pub struct Vulkan {
    _entry: ash::Entry,
    instance: ash::Instance,
}

impl Drop for Vulkan {
    fn drop(&mut self) {
        // SAFETY: every object made from the instance (devices) is dropped before it:
        // `Device` borrows the `Vulkan` it was made from.
        unsafe { self.instance.destroy_instance(None) }
    }
}

fn version_text(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}

impl Vulkan {
    /// Loads `libvulkan.so.1` and makes an instance (Vulkan 1.2, no layers).
    pub fn load() -> Result<Vulkan, ObserveError> {
        // SAFETY: loading the system's Vulkan loader runs its initialisation code, which
        // is what every Vulkan program does.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| ObserveError::NoLoader {
            detail: e.to_string(),
        })?;
        let app = vk::ApplicationInfo::default()
            .application_name(c"vkherd observe")
            .api_version(vk::API_VERSION_1_2);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: valid create info, no allocator.
        let instance = unsafe { entry.create_instance(&info, None) }.map_err(|r| {
            if r == vk::Result::ERROR_INCOMPATIBLE_DRIVER {
                ObserveError::NoDevice
            } else {
                ObserveError::vk("vkCreateInstance")(r)
            }
        })?;
        Ok(Vulkan {
            _entry: entry,
            instance,
        })
    }

    fn physical_devices(&self) -> Result<Vec<vk::PhysicalDevice>, ObserveError> {
        // SAFETY: a live instance.
        unsafe { self.instance.enumerate_physical_devices() }
            .map_err(ObserveError::vk("vkEnumeratePhysicalDevices"))
    }

    /// The physical devices, in the loader's order (the `--device` numbers).
    pub fn devices(&self) -> Result<Vec<DeviceInfo>, ObserveError> {
        let pds = self.physical_devices()?;
        Ok(pds
            .iter()
            .enumerate()
            .map(|(index, &pd)| self.info(index, pd))
            .collect())
    }

    fn info(&self, index: usize, pd: vk::PhysicalDevice) -> DeviceInfo {
        let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
        let mut driver = vk::PhysicalDeviceDriverProperties::default();
        let mut props = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut subgroup)
            .push_next(&mut driver);
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut feats = vk::PhysicalDeviceFeatures2::default().push_next(&mut v12);
        // SAFETY: `pd` comes from this instance; the chained structs outlive the calls.
        unsafe {
            self.instance
                .get_physical_device_properties2(pd, &mut props);
            self.instance.get_physical_device_features2(pd, &mut feats);
        }
        let p = props.properties;
        let base = feats.features;
        let name = p
            .device_name_as_c_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let driver_name = driver
            .driver_name_as_c_str()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let features = Features {
            memory_model: v12.vulkan_memory_model == vk::TRUE,
            device_scope: v12.vulkan_memory_model_device_scope == vk::TRUE,
            chains: v12.vulkan_memory_model_availability_visibility_chains == vk::TRUE,
            int64: base.shader_int64 == vk::TRUE,
            buffer_int64_atomics: v12.shader_buffer_int64_atomics == vk::TRUE,
            shared_int64_atomics: v12.shader_shared_int64_atomics == vk::TRUE,
        };
        let kind = match p.device_type {
            vk::PhysicalDeviceType::INTEGRATED_GPU => "integrated GPU",
            vk::PhysicalDeviceType::DISCRETE_GPU => "discrete GPU",
            vk::PhysicalDeviceType::VIRTUAL_GPU => "virtual GPU",
            vk::PhysicalDeviceType::CPU => "CPU",
            _ => "other",
        };
        let unfit = if p.api_version < vk::API_VERSION_1_2 {
            Some(format!(
                "Vulkan {} (SPIR-V 1.5 with the Vulkan memory model needs 1.2)",
                version_text(p.api_version)
            ))
        } else if !features.memory_model {
            Some("no vulkanMemoryModel".to_string())
        } else if self.compute_queue(pd).is_none() {
            Some("no compute queue".to_string())
        } else if !subgroup
            .supported_stages
            .contains(vk::ShaderStageFlags::COMPUTE)
        {
            Some("no subgroups in compute shaders (SubgroupId)".to_string())
        } else {
            None
        };
        DeviceInfo {
            index,
            name,
            api_version: version_text(p.api_version),
            kind,
            driver: driver_name,
            subgroup_size: subgroup.subgroup_size,
            max_workgroup_size: p.limits.max_compute_work_group_size[0]
                .min(p.limits.max_compute_work_group_invocations),
            features,
            unfit,
        }
    }

    fn compute_queue(&self, pd: vk::PhysicalDevice) -> Option<u32> {
        // SAFETY: `pd` comes from this instance.
        let families = unsafe {
            self.instance
                .get_physical_device_queue_family_properties(pd)
        };
        families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .map(|i| i as u32)
    }

    /// Opens device `index` with the memory-model and integer features it has.
    pub fn open(&self, index: usize) -> Result<Device<'_>, ObserveError> {
        let pds = self.physical_devices()?;
        if pds.is_empty() {
            return Err(ObserveError::NoDevice);
        }
        let pd = *pds.get(index).ok_or(ObserveError::DeviceIndex {
            index,
            count: pds.len(),
        })?;
        let info = self.info(index, pd);
        if let Some(why) = &info.unfit {
            return Err(ObserveError::DeviceUnfit {
                device: info.name.clone(),
                why: why.clone(),
            });
        }
        let family = self.compute_queue(pd).expect("checked by info");
        let f = info.features;
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default()
            .vulkan_memory_model(true)
            .vulkan_memory_model_device_scope(f.device_scope)
            .vulkan_memory_model_availability_visibility_chains(f.chains)
            .shader_buffer_int64_atomics(f.buffer_int64_atomics)
            .shader_shared_int64_atomics(f.shared_int64_atomics);
        let base = vk::PhysicalDeviceFeatures::default().shader_int64(f.int64);
        let priorities = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let create = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_features(&base)
            .push_next(&mut v12);
        // SAFETY: valid create info for a device of this instance.
        let device = unsafe { self.instance.create_device(pd, &create, None) }
            .map_err(ObserveError::vk("vkCreateDevice"))?;
        // SAFETY: the family and index were requested above.
        let queue = unsafe { device.get_device_queue(family, 0) };
        // SAFETY: `pd` comes from this instance.
        let memory = unsafe { self.instance.get_physical_device_memory_properties(pd) };
        let wanted = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let memory_type = (0..memory.memory_type_count)
            .find(|&i| {
                memory.memory_types[i as usize]
                    .property_flags
                    .contains(wanted)
            })
            .ok_or_else(|| ObserveError::DeviceUnfit {
                device: info.name.clone(),
                why: "no host-visible coherent memory".to_string(),
            })?;
        let pool = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: a live device.
        let pool = unsafe { device.create_command_pool(&pool, None) }
            .map_err(ObserveError::vk("vkCreateCommandPool"))?;
        Ok(Device {
            _vulkan: self,
            info,
            device,
            queue,
            pool,
            memory_type,
        })
    }
}

/// An open logical device with its compute queue.
pub struct Device<'v> {
    _vulkan: &'v Vulkan,
    pub info: DeviceInfo,
    device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    memory_type: u32,
}

impl Drop for Device<'_> {
    fn drop(&mut self) {
        // SAFETY: every object made from the device (`Kernel`) borrows it, so is dropped
        // first; waiting makes sure no command is still running.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
        }
    }
}

/// A host-visible storage buffer, mapped for its whole life.
pub struct Buffer {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    ptr: *mut u8,
    pub bytes: usize,
}

impl Buffer {
    /// The buffer's bytes.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: `ptr` maps `bytes` bytes of host-coherent memory for the buffer's life,
        // and no dispatch runs while the host holds this slice (`Kernel::dispatch`
        // waits for completion).
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.bytes) }
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: as `bytes_mut`.
        unsafe { std::slice::from_raw_parts(self.ptr, self.bytes) }
    }
}

/// One test's pipeline and buffers on a device.
pub struct Kernel<'d> {
    device: &'d Device<'d>,
    pub buffers: Vec<Buffer>,
    module: vk::ShaderModule,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    descriptor_pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
    command: vk::CommandBuffer,
    fence: vk::Fence,
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        let d = &self.device.device;
        // SAFETY: the objects were made from this device; no dispatch is running
        // (`dispatch` waits for its fence).
        unsafe {
            let _ = d.queue_wait_idle(self.device.queue);
            d.destroy_fence(self.fence, None);
            d.free_command_buffers(self.device.pool, &[self.command]);
            d.destroy_descriptor_pool(self.descriptor_pool, None);
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
            d.destroy_shader_module(self.module, None);
            for b in &self.buffers {
                d.unmap_memory(b.memory);
                d.destroy_buffer(b.buffer, None);
                d.free_memory(b.memory, None);
            }
        }
    }
}

/// How long a dispatch may take before observe gives up on the device.
const DISPATCH_TIMEOUT_NS: u64 = 120_000_000_000;

impl<'v> Device<'v> {
    fn buffer(&self, bytes: usize) -> Result<Buffer, ObserveError> {
        let d = &self.device;
        let bytes = bytes.max(16);
        let info = vk::BufferCreateInfo::default()
            .size(bytes as u64)
            .usage(vk::BufferUsageFlags::STORAGE_BUFFER)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: a live device and valid create infos; the memory type was chosen for
        // host-visible coherent memory and is checked against the buffer's requirements.
        unsafe {
            let buffer = d
                .create_buffer(&info, None)
                .map_err(ObserveError::vk("vkCreateBuffer"))?;
            let req = d.get_buffer_memory_requirements(buffer);
            if req.memory_type_bits & (1 << self.memory_type) == 0 {
                d.destroy_buffer(buffer, None);
                return Err(ObserveError::DeviceUnfit {
                    device: self.info.name.clone(),
                    why: "storage buffers cannot live in host-visible coherent memory".into(),
                });
            }
            let alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(self.memory_type);
            let memory = d
                .allocate_memory(&alloc, None)
                .map_err(ObserveError::vk("vkAllocateMemory"))?;
            d.bind_buffer_memory(buffer, memory, 0)
                .map_err(ObserveError::vk("vkBindBufferMemory"))?;
            let ptr = d
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                .map_err(ObserveError::vk("vkMapMemory"))? as *mut u8;
            std::ptr::write_bytes(ptr, 0, bytes);
            Ok(Buffer {
                buffer,
                memory,
                ptr,
                bytes,
            })
        }
    }

    /// A pipeline for `spirv` with one buffer per binding of the given sizes (in
    /// bytes); the alias binding (`MemAlias`) gets the `Mem` buffer again.
    pub fn kernel(&self, spirv: &[u32], sizes: &[usize]) -> Result<Kernel<'_>, ObserveError> {
        let d = &self.device;
        let mut buffers = Vec::with_capacity(sizes.len());
        for &s in sizes {
            buffers.push(self.buffer(s)?);
        }
        let vk_bindings: Vec<vk::DescriptorSetLayoutBinding> = BINDINGS
            .iter()
            .map(|&b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b as u32)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        // SAFETY: valid create infos on a live device; every handle made here is owned
        // by the returned Kernel, which destroys them.
        unsafe {
            let module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None)
                .map_err(ObserveError::vk("vkCreateShaderModule"))?;
            let set_layout = d
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&vk_bindings),
                    None,
                )
                .map_err(ObserveError::vk("vkCreateDescriptorSetLayout"))?;
            let layouts = [set_layout];
            let layout = d
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts),
                    None,
                )
                .map_err(ObserveError::vk("vkCreatePipelineLayout"))?;
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main");
            let create = [vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(layout)];
            let pipeline = d
                .create_compute_pipelines(vk::PipelineCache::null(), &create, None)
                .map_err(|(_, r)| ObserveError::vk("vkCreateComputePipelines")(r))?[0];
            let pool_sizes = [vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(BINDINGS.len() as u32)];
            let descriptor_pool = d
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(1)
                        .pool_sizes(&pool_sizes),
                    None,
                )
                .map_err(ObserveError::vk("vkCreateDescriptorPool"))?;
            let set = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(descriptor_pool)
                        .set_layouts(&layouts),
                )
                .map_err(ObserveError::vk("vkAllocateDescriptorSets"))?[0];
            let infos: Vec<[vk::DescriptorBufferInfo; 1]> = BINDINGS
                .iter()
                .map(|&b| {
                    let source = if b == crate::bindings::Binding::MemAlias {
                        crate::bindings::Binding::Mem
                    } else {
                        b
                    };
                    [vk::DescriptorBufferInfo::default()
                        .buffer(buffers[source as usize].buffer)
                        .offset(0)
                        .range(vk::WHOLE_SIZE)]
                })
                .collect();
            let writes: Vec<vk::WriteDescriptorSet> = BINDINGS
                .iter()
                .zip(&infos)
                .map(|(&b, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(b as u32)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(info)
                })
                .collect();
            d.update_descriptor_sets(&writes, &[]);
            let command = d
                .allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(self.pool)
                        .level(vk::CommandBufferLevel::PRIMARY)
                        .command_buffer_count(1),
                )
                .map_err(ObserveError::vk("vkAllocateCommandBuffers"))?[0];
            let fence = d
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(ObserveError::vk("vkCreateFence"))?;
            Ok(Kernel {
                device: self,
                buffers,
                module,
                set_layout,
                layout,
                pipeline,
                descriptor_pool,
                set,
                command,
                fence,
            })
        }
    }
}

impl Kernel<'_> {
    /// Runs `workgroups` workgroups and waits for them; the shader's writes are then
    /// visible to the host (a pipeline barrier from the shader to host reads).
    pub fn dispatch(&mut self, workgroups: u32) -> Result<(), ObserveError> {
        let d = &self.device.device;
        let c = self.command;
        // SAFETY: the command buffer, pipeline, set and fence belong to this kernel; the
        // host does not touch the buffers until the fence signals.
        unsafe {
            d.reset_command_buffer(c, vk::CommandBufferResetFlags::empty())
                .map_err(ObserveError::vk("vkResetCommandBuffer"))?;
            d.begin_command_buffer(
                c,
                &vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
            .map_err(ObserveError::vk("vkBeginCommandBuffer"))?;
            let host_writes = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::HOST_WRITE)
                .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
            d.cmd_pipeline_barrier(
                c,
                vk::PipelineStageFlags::HOST,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &host_writes,
                &[],
                &[],
            );
            d.cmd_bind_pipeline(c, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            d.cmd_bind_descriptor_sets(
                c,
                vk::PipelineBindPoint::COMPUTE,
                self.layout,
                0,
                &[self.set],
                &[],
            );
            d.cmd_dispatch(c, workgroups, 1, 1);
            let to_host = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            d.cmd_pipeline_barrier(
                c,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &to_host,
                &[],
                &[],
            );
            d.end_command_buffer(c)
                .map_err(ObserveError::vk("vkEndCommandBuffer"))?;
            let commands = [c];
            let submit = [vk::SubmitInfo::default().command_buffers(&commands)];
            d.reset_fences(&[self.fence])
                .map_err(ObserveError::vk("vkResetFences"))?;
            d.queue_submit(self.device.queue, &submit, self.fence)
                .map_err(ObserveError::vk("vkQueueSubmit"))?;
            d.wait_for_fences(&[self.fence], true, DISPATCH_TIMEOUT_NS)
                .map_err(ObserveError::vk("vkWaitForFences"))?;
        }
        Ok(())
    }
}
